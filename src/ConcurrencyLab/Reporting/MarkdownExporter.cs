using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary><c>results.md</c>: one GitHub table per scenario, with the environment and method, ready to paste.</summary>
internal sealed class MarkdownExporter : IExporter
{
    /// <summary>The exporter, in GitHub-flavoured Markdown: a table per scenario, then its notes.</summary>
    public static MarkdownExporter GitHub { get; } = new();

    /// <summary><c>results.md</c>.</summary>
    public string FileName => "results.md";

    /// <summary>Writes <paramref name="run"/>'s tables to <paramref name="writer"/>.</summary>
    public void Export(RunResult run, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine("# ConcurrencyLab results");
        writer.WriteLine();
        writer.WriteLine(Escape(RunDescription.Machine(run)) + "  ");
        writer.WriteLine(Escape(RunDescription.Method(run)));
        if (run.Scenarios.Count > 1)
        {
            writer.WriteLine();
            writer.WriteLine("| scenario | fastest | use | efficiency | published claims |");
            writer.WriteLine("| --- | --- | --- | ---: | --- |");
            foreach (var row in RunSummary.Of(run))
            {
                writer.WriteLine($"| {Escape(row.Scenario)} | {Escape(row.Fastest)} | {Escape(row.Use)} | {Escape(row.Efficiency)} | " +
                    $"{Escape(row.Claims)} |");
            }
        }

        foreach (var scenario in run.Scenarios)
        {
            writer.WriteLine();
            writer.WriteLine($"## {Escape(scenario.Name)}");
            foreach (var block in ScenarioReport.Of(scenario, run.Environment.ProcessorCount).Where(b => b.Audience != Audience.Brief))
            {
                writer.WriteLine();
                Write(block, writer);
            }
        }
    }

    private static void Write(Block block, TextWriter writer)
    {
        switch (block)
        {
            case Passage paragraph:
                // Lines of one paragraph end in two spaces: a line break, not a new paragraph.
                writer.WriteLine(string.Join("  " + writer.NewLine, paragraph.Lines.Select(Line)));
                break;
            case BulletList list:
                if (list.Lead is { } lead)
                {
                    writer.WriteLine(Write(lead));
                    writer.WriteLine();
                }

                foreach (var item in list.Items)
                {
                    writer.WriteLine($"- {Write(item)}");
                }

                break;
            case TextTable grid:
                writer.WriteLine("| " + string.Join(" | ", grid.Headers.Select(Escape)) + " |");
                writer.WriteLine("|" + string.Join("|", grid.Numeric.Select(n => n ? " ---: " : " --- ")) + "|");
                foreach (var row in grid.Rows)
                {
                    writer.WriteLine("| " + string.Join(" | ", row.Select(Escape)) + " |");
                }

                break;
            case VariantTable table:
                var scenario = table.Scenario;
                var columns = ResultColumn.For(scenario);
                writer.WriteLine("| " + string.Join(" | ", columns.Select(c => Escape(c.HeaderWithUnit))) + " |");
                writer.WriteLine("|" + string.Join("|", columns.Select((c, i) => i == 0 || c.Id == "status" ? " --- " : " ---: ")) + "|");
                foreach (var variant in ResultColumn.Order(scenario))
                {
                    writer.WriteLine("| " + string.Join(" | ", columns.Select(c => Escape(c.Format(scenario, variant)))) + " |");
                }

                break;
        }
    }

    // A line of a paragraph: the fastest's name stands out.
    private static string Line(Statement statement) => statement.Tone == Tone.Fastest
        ? string.Concat(statement.Inlines.Select(i => i is VariantName ? $"**{Write(i)}**" : Write(i)))
        : Write(statement);

    /// <summary>A statement in Markdown: names and code as code spans, the rest as text that cannot become markup.</summary>
    internal static string Write(Statement statement) => string.Concat(statement.Inlines.Select(Write));

    private static string Write(Inline inline) => inline is VariantName or Code ? CodeSpan(inline.Text) : Escape(inline.Text);

    // A code span holds anything but a line break or a bar (which would end a table's cell); a name holding one is
    // written as text.
    private static string CodeSpan(string text)
    {
        if (text.Length == 0 || text.Contains('|', StringComparison.Ordinal) || text.Contains('\n', StringComparison.Ordinal)
            || text.Contains('\r', StringComparison.Ordinal))
        {
            return Escape(text);
        }

        var fence = new string('`', LongestRun(text, '`') + 1);
        var pad = text.StartsWith('`') || text.EndsWith('`') ? " " : string.Empty;
        return fence + pad + text + pad + fence;
    }

    private static int LongestRun(string text, char c)
    {
        int longest = 0, run = 0;
        foreach (var ch in text)
        {
            run = ch == c ? run + 1 : 0;
            longest = Math.Max(longest, run);
        }

        return longest;
    }

    /// <summary>
    /// Text that stays text in Markdown and in a table's cell: a backslash before each character that could start
    /// markup (emphasis, code, a link, an HTML tag, a cell's end), a line break a space.
    /// </summary>
    internal static string Escape(string text)
    {
        var escaped = new System.Text.StringBuilder(text.Length);
        foreach (var c in text.ReplaceLineEndings(" "))
        {
            if (c is '\\' or '`' or '*' or '[' or ']' or '<' or '|')
            {
                escaped.Append('\\');
            }

            escaped.Append(c);
        }

        return escaped.ToString();
    }
}
