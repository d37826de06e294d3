namespace ConcurrencyLab.Scenarios;

/// <summary>The valid name closest to a misspelt one, for an error that offers it ("did you mean 'whenall'?").</summary>
internal static class Closest
{
    /// <summary>
    /// The one of <paramref name="known"/> fewest edits from <paramref name="typed"/> (case aside), when it is near enough
    /// to be a slip: at most a third of the typed name's letters, and at least one; null otherwise.
    /// </summary>
    public static string? To(string typed, IEnumerable<string> known)
    {
        ArgumentNullException.ThrowIfNull(typed);
        ArgumentNullException.ThrowIfNull(known);
        var target = typed.Trim().ToUpperInvariant();
        if (target.Length == 0 || target.Length > 200)
        {
            return null;
        }

        var best = known.Where(k => k.Length <= 200).Select(k => (Name: k, Distance: Distance(k.ToUpperInvariant(), target)))
            .OrderBy(k => k.Distance).FirstOrDefault();
        return best.Name is not null && best.Distance <= Math.Max(1, target.Length / 3) ? best.Name : null;
    }

    /// <summary>" Did you mean 'NAME'?" when one of <paramref name="known"/> is near <paramref name="typed"/>; empty otherwise.</summary>
    public static string Suggestion(string typed, IEnumerable<string> known) =>
        To(typed, known) is { } name ? $" Did you mean '{name}'?" : string.Empty;

    /// <summary>
    /// Edits between two names: insertions, deletions, substitutions and swaps of two neighbours (the optimal string
    /// alignment distance), so 'delya' is one edit from 'delay', as a slip of the fingers is.
    /// </summary>
    public static int Distance(string a, string b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        var d = new int[a.Length + 1, b.Length + 1];
        for (var i = 0; i <= a.Length; i++)
        {
            d[i, 0] = i;
        }

        for (var j = 0; j <= b.Length; j++)
        {
            d[0, j] = j;
        }

        for (var i = 1; i <= a.Length; i++)
        {
            for (var j = 1; j <= b.Length; j++)
            {
                var cost = a[i - 1] == b[j - 1] ? 0 : 1;
                d[i, j] = Math.Min(Math.Min(d[i - 1, j] + 1, d[i, j - 1] + 1), d[i - 1, j - 1] + cost);
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                {
                    d[i, j] = Math.Min(d[i, j], d[i - 2, j - 2] + 1);
                }
            }
        }

        return d[a.Length, b.Length];
    }
}
