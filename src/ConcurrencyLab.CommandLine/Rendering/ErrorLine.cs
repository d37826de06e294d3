using System.Globalization;
using System.Text;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// conclab's own messages on standard error: one line each, prefixed <c>conclab: </c>, whatever they quote. A
/// value the user typed is echoed in the message, and may hold a line break, a NUL or ten thousand characters;
/// those are shown escaped and shortened, so a script that reads the first line reads all of it.
/// </summary>
internal static class ErrorLine
{
    private const string Prefix = "conclab: ";

    // A word this long is a value nobody would read whole: its start says which one it was.
    private const int LongestWord = 160;
    private const int KeptOfAWord = 60;

    /// <summary>Writes <paramref name="problems"/> as one line: several are joined by semicolons.</summary>
    public static Task WriteAsync(params IEnumerable<string> problems) =>
        Console.Error.WriteLineAsync(Format(problems));

    /// <summary>The one line that says <paramref name="problems"/>.</summary>
    public static string Format(params IEnumerable<string> problems)
    {
        var parts = problems.Select(p => Clean(p).Trim()).Where(p => p.Length > 0).ToList();
        for (var i = 0; i < parts.Count - 1; i++)
        {
            parts[i] = parts[i].TrimEnd('.');
        }

        return Prefix + string.Join("; ", parts);
    }

    /// <summary><paramref name="text"/> with its control characters and line breaks escaped, and its overlong words shortened.</summary>
    public static string Clean(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return string.Join(' ', text.Split(' ').Select(word => word.Length <= LongestWord
            ? Escape(word)
            : $"{Escape(word[..KeptOfAWord])}...({word.Length.ToString(CultureInfo.InvariantCulture)} characters)"));
    }

    private static string Escape(string word)
    {
        if (!word.Any(NeedsEscape))
        {
            return word;
        }

        var escaped = new StringBuilder(word.Length + 8);
        foreach (var c in word)
        {
            escaped.Append(c switch
            {
                '\n' => @"\n",
                '\r' => @"\r",
                '\t' => @"\t",
                '\0' => @"\0",
                _ when NeedsEscape(c) => @"\u" + ((int)c).ToString("x4", CultureInfo.InvariantCulture),
                _ => c.ToString(),
            });
        }

        return escaped.ToString();
    }

    // Control characters, and the separators some terminals and readers take for line breaks.
    private static bool NeedsEscape(char c) => char.IsControl(c) || c is '\u2028' or '\u2029';
}
