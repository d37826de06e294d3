using System.Globalization;
using System.Text;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// The charts' colours, in one place for the report, the SVG files and the PNG files. A series is told apart
/// by its colour and, past the tenth, by a dash pattern too, so sixteen lines are still sixteen different
/// lines. Each colour has three tones: one for a light page, one for a dark page, and a mid tone for chart
/// files, which are pasted on pages of either kind. Every tone keeps a contrast of at least 3:1 against the
/// background it is for (both backgrounds for the mid tone), the WCAG minimum for graphics.
/// </summary>
internal static class ChartPalette
{
    /// <summary>A colour in its three tones, as <c>#rrggbb</c>.</summary>
    public sealed record Tones(string Light, string Dark, string File);

    /// <summary>The page colours the tones are chosen against.</summary>
    public const string LightBackground = "#ffffff";

    /// <summary>The dark page colour the dark and file tones are chosen against.</summary>
    public const string DarkBackground = "#0d1117";

    /// <summary>
    /// Text, axes and whiskers. The file tone is the grey with the highest contrast one colour can have on both
    /// backgrounds at once: 4.35:1 on each. Small text would want 4.5:1, which no single colour reaches on both.
    /// </summary>
    public static Tones Foreground { get; } = new("#1b1f24", "#e6edf3", "#727a84");

    /// <summary>Tick labels and other secondary text.</summary>
    public static Tones Muted { get; } = new("#57606a", "#9da7b3", "#727a84");

    /// <summary>The bars of the wall-time chart.</summary>
    public static Tones Bar => Series[0];

    /// <summary>The ideal, drawn dashed in the text colour so no series can be taken for it.</summary>
    public static Tones Ideal => Foreground;

    /// <summary>Series colours: blue, orange, green, red, teal, gold, mauve, brown, violet, pink.</summary>
    public static IReadOnlyList<Tones> Series { get; } =
    [
        new("#4e79a7", "#79a8d8", "#4e79a7"),
        new("#c85f12", "#ffa657", "#d9731a"),
        new("#3b8a32", "#7ee787", "#4f9a45"),
        new("#d13f41", "#ff7b72", "#e15759"),
        new("#2f8a84", "#a5d6d2", "#3f9a94"),
        new("#94760c", "#f2cc60", "#a68418"),
        new("#a05d8f", "#e0a3cf", "#b07aa1"),
        new("#8a634d", "#c9a27e", "#9c755f"),
        new("#7757c4", "#b29cf5", "#8c6bd1"),
        new("#c2417e", "#ff8fc0", "#d1568f"),
    ];

    /// <summary>The ideal's dash pattern, as an SVG <c>stroke-dasharray</c>.</summary>
    public const string IdealDash = "5 4";

    /// <summary>SVG <c>stroke-dasharray</c> values: solid for the first ten series, then dashed, then dotted.</summary>
    public static IReadOnlyList<string?> DashPatterns { get; } = [null, "7 4", "2 3"];

    /// <summary>The colour and dash pattern of the series at <paramref name="index"/>; distinct for the first 30.</summary>
    public static (int Colour, int Dash) StyleOf(int index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        return (index % Series.Count, index / Series.Count % DashPatterns.Count);
    }

    /// <summary>The CSS classes of a series' line or swatch: <c>series-N</c>, and <c>dash-N</c> when it is not solid.</summary>
    public static string CssClasses(int index)
    {
        var (colour, dash) = StyleOf(index);
        return dash == 0 ? $"series-{colour}" : $"series-{colour} dash-{dash}";
    }

    /// <summary>
    /// The chart rules, with <paramref name="tone"/> choosing which tone each colour takes and
    /// <paramref name="scope"/> prefixed to every selector (<c>svg </c> inside a page, empty in a file).
    /// </summary>
    public static string Css(Func<Tones, string> tone, string scope)
    {
        ArgumentNullException.ThrowIfNull(tone);
        var css = new StringBuilder();
        var invariant = CultureInfo.InvariantCulture;
        css.Append(invariant, $"{scope}.label,{scope}.value,{scope}.axis-title{{fill:{tone(Foreground)}}}{scope}.tick{{fill:{tone(Muted)}}}");
        css.Append(invariant, $"{scope}.bar{{fill:{tone(Bar)}}}{scope}.whisker{{stroke:{tone(Foreground)};stroke-width:1.2;fill:none}}");
        css.Append(
            invariant, $"{scope}.ideal{{stroke:{tone(Ideal)};stroke-width:2;stroke-dasharray:{IdealDash}}}{scope}.ideal-label{{fill:{tone(Ideal)}}}");
        css.Append(
            invariant, $"{scope}.axis{{stroke:{tone(Muted)}}}{scope}.grid{{stroke:{tone(Muted)};stroke-opacity:.35}}{scope}.line{{fill:none;stroke-width:1.8}}{scope}.swatch{{stroke-width:3}}");
        for (var i = 0; i < Series.Count; i++)
        {
            css.Append(invariant, $"{scope}.series-{i}{{stroke:{tone(Series[i])};fill:{tone(Series[i])}}}");
        }

        for (var i = 1; i < DashPatterns.Count; i++)
        {
            css.Append(invariant, $"{scope}.dash-{i}{{stroke-dasharray:{DashPatterns[i]}}}");
        }

        return css.Append(
            invariant, $"{scope}polyline.line,{scope}line.swatch{{fill:none}}{scope}circle.mark{{stroke-dasharray:none;stroke-width:1;fill-opacity:.85}}{scope}.band{{stroke:none;fill-opacity:.8}}{scope}circle.raise{{fill:{tone(Foreground)}}}{scope}circle.lower{{fill:none;stroke:{tone(Foreground)};stroke-width:1.5}}{scope}circle.mark.lower{{fill:none;stroke-width:1.5}}{scope}circle.chosen{{fill:none;stroke:{tone(Foreground)};stroke-width:2}}{scope}.in-flight{{stroke:none;fill-opacity:.7}}{scope}line.allowed{{stroke:{tone(Foreground)};stroke-width:1;stroke-dasharray:4 3}}").ToString();
    }

    /// <summary>WCAG 2 contrast ratio of two <c>#rrggbb</c> colours, from 1 (same) to 21 (black on white).</summary>
    public static double Contrast(string first, string second)
    {
        var (a, b) = (Luminance(first), Luminance(second));
        return (Math.Max(a, b) + 0.05) / (Math.Min(a, b) + 0.05);
    }

    /// <summary>The red, green and blue of a <c>#rrggbb</c> colour.</summary>
    public static (byte R, byte G, byte B) Rgb(string colour)
    {
        ArgumentNullException.ThrowIfNull(colour);
        if (colour.Length != 7 || colour[0] != '#'
            || !int.TryParse(colour.AsSpan(1), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var value))
        {
            throw new FormatException($"'{colour}' is not a #rrggbb colour");
        }

        return ((byte)(value >> 16), (byte)(value >> 8), (byte)value);
    }

    private static double Luminance(string colour)
    {
        var (r, g, b) = Rgb(colour);
        static double Linear(byte channel)
        {
            var c = channel / 255.0;
            return c <= 0.03928 ? c / 12.92 : Math.Pow((c + 0.055) / 1.055, 2.4);
        }

        return (0.2126 * Linear(r)) + (0.7152 * Linear(g)) + (0.0722 * Linear(b));
    }
}
