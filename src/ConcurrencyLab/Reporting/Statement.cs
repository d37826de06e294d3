using System.Globalization;
using System.Runtime.CompilerServices;

namespace ConcurrencyLab.Reporting;

/// <summary>
/// A piece of a <see cref="Statement"/>, typed by what it is, so each report can set it apart its own way: a
/// variant's name and code as code, a number as a figure, the rest as words. Its text is the same everywhere.
/// </summary>
/// <param name="Text">The text, as every report prints it.</param>
internal abstract record Inline(string Text);

/// <summary>Words, printed as they are.</summary>
/// <param name="Text">The words.</param>
internal sealed record Words(string Text) : Inline(Text);

/// <summary>A measured or counted figure: its text as <see cref="Measurement.NumberText"/> writes it, and the value it writes.</summary>
/// <param name="Text">The figure as written ("1,251").</param>
/// <param name="Value">The value it stands for.</param>
internal sealed record Number(string Text, double Value) : Inline(Text);

/// <summary>A variant's name (<c>whenall-async@5</c>).</summary>
/// <param name="Text">The name.</param>
internal sealed record VariantName(string Text) : Inline(Text);

/// <summary>Something a reader would type: a parameter (<c>items=40</c>), a command, a variable.</summary>
/// <param name="Text">The code.</param>
internal sealed record Code(string Text) : Inline(Text);

/// <summary>What a statement says of the answer, which a report may show (the console's colour, a page's class).</summary>
internal enum Tone
{
    /// <summary>A plain statement.</summary>
    Plain,

    /// <summary>The fastest variant.</summary>
    Fastest,

    /// <summary>What to use.</summary>
    Use,

    /// <summary>What to avoid, and why.</summary>
    Avoid,

    /// <summary>A published claim that holds here.</summary>
    Holds,

    /// <summary>A published claim that does not hold here.</summary>
    DoesNotHold,

    /// <summary>A published claim that could not be judged here.</summary>
    Unjudged,

    /// <summary>A published claim this run did not put to the test.</summary>
    NotTested,

    /// <summary>A note on how the run was made.</summary>
    Note,

    /// <summary>A failed trial.</summary>
    Failure,
}

/// <summary>A sentence of a report, in typed pieces, with its tone; <see cref="Text"/> is what every report prints.</summary>
/// <param name="Inlines">The pieces, in order.</param>
/// <param name="Tone">What it says of the answer.</param>
internal sealed record Statement(IReadOnlyList<Inline> Inlines, Tone Tone = Tone.Plain)
{
    /// <summary>The statement as plain text.</summary>
    public string Text => string.Concat(Inlines.Select(i => i.Text));

    /// <summary>The statement from an interpolated string: typed pieces stay typed, literals and other values are words.</summary>
    public static Statement Of(Say say) => new(say.Inlines);

    /// <summary>A statement in <paramref name="tone"/> from an interpolated string.</summary>
    public static Statement Of(Tone tone, Say say) => new(say.Inlines, tone);

    /// <summary>Words alone.</summary>
    public static Statement Plain(string text, Tone tone = Tone.Plain) => new([new Words(text)], tone);

    /// <summary><paramref name="parts"/> joined by <paramref name="separator"/>, as one statement.</summary>
    public static Statement Join(string separator, IEnumerable<Statement> parts)
    {
        ArgumentNullException.ThrowIfNull(parts);
        var inlines = new List<Inline>();
        foreach (var part in parts)
        {
            if (inlines.Count > 0)
            {
                Say.Add(inlines, new Words(separator));
            }

            foreach (var inline in part.Inlines)
            {
                Say.Add(inlines, inline);
            }
        }

        return new(inlines);
    }

    /// <inheritdoc/>
    public override string ToString() => Text;
}

/// <summary>
/// Builds a <see cref="Statement"/>'s pieces from an interpolated string: an <see cref="Inline"/> or a
/// <see cref="Statement"/> stays as it is, anything else becomes words (a formattable value in the invariant culture).
/// </summary>
[InterpolatedStringHandler]
internal readonly ref struct Say
{
    /// <summary>A builder for an interpolated string of <paramref name="literalLength"/> characters and
    /// <paramref name="formattedCount"/> holes.</summary>
    public Say(int literalLength, int formattedCount) => Inlines = new List<Inline>(formattedCount * 2 + 1);

    /// <summary>The pieces so far.</summary>
    public List<Inline> Inlines { get; }

    /// <summary>A literal: words.</summary>
    public void AppendLiteral(string value) => Add(Inlines, new Words(value));

    /// <summary>A hole: a piece stays typed, a statement's pieces are taken in, anything else is words.</summary>
    public void AppendFormatted<T>(T value)
    {
        switch (value)
        {
            case Inline inline:
                Add(Inlines, inline);
                break;
            case Statement statement:
                foreach (var piece in statement.Inlines)
                {
                    Add(Inlines, piece);
                }

                break;
            case IFormattable formattable:
                Add(Inlines, new Words(formattable.ToString(null, CultureInfo.InvariantCulture)));
                break;
            default:
                Add(Inlines, new Words(value?.ToString() ?? string.Empty));
                break;
        }
    }

    /// <summary>A hole with a format: words, in the invariant culture.</summary>
    public void AppendFormatted<T>(T value, string? format)
        where T : IFormattable => Add(Inlines, new Words(value.ToString(format, CultureInfo.InvariantCulture)));

    // Empty pieces are dropped and words beside words run together, so a statement's pieces are the fewest.
    internal static void Add(List<Inline> inlines, Inline inline)
    {
        if (inline.Text.Length == 0)
        {
            return;
        }

        if (inline is Words words && inlines.Count > 0 && inlines[^1] is Words last)
        {
            inlines[^1] = new Words(last.Text + words.Text);
        }
        else
        {
            inlines.Add(inline);
        }
    }
}

/// <summary>Typed pieces for numbers and names, written by the lab's one formatter.</summary>
internal static class Piece
{
    /// <summary>Milliseconds as every report writes them (the unit is the caller's words).</summary>
    public static Number Ms(double value) => new(Measurement.NumberText.Ms(value), value);

    /// <summary>A count ("1,024").</summary>
    public static Number Count(double value) => new(Measurement.NumberText.Count(value), value);

    /// <summary>How many times ("5.2").</summary>
    public static Number Multiple(double value) => new(Measurement.NumberText.Multiple(value), value);

    /// <summary>A number in <paramref name="format"/>, invariant ("0.00").</summary>
    public static Number Fixed(double value, string format) => new(value.ToString(format, CultureInfo.InvariantCulture), value);

    /// <summary>A variant's name.</summary>
    public static VariantName Variant(string name) => new(name);

    /// <summary>Code.</summary>
    public static Code Code(string text) => new(text);
}
