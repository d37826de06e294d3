namespace ConcurrencyLab.Hosting;

/// <summary>Text another program or a file wrote, as a line of the lab's may quote it.</summary>
internal static class ForeignText
{
    /// <summary>
    /// <paramref name="text"/> with no control character (no terminal escape, no line of its own): each is '?'; at most
    /// <paramref name="most"/> characters of it.
    /// </summary>
    public static string Line(string? text, int most) => new([.. (text ?? string.Empty).Take(most).Select(c => char.IsControl(c) ? '?' : c)]);
}
