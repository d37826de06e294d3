using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>Which reports a block is for: the console, the files, or both.</summary>
internal enum Audience
{
    /// <summary>Every report.</summary>
    All,

    /// <summary>The console only: a shorter form of what the files say in full.</summary>
    Brief,

    /// <summary>results.md and report.html only: what the console leaves to them.</summary>
    Full,
}

/// <summary>A part of a scenario's report, made once; each renderer lays out the blocks it has room for.</summary>
/// <param name="Audience">Which reports show it.</param>
internal abstract record Block(Audience Audience);

/// <summary>Statements shown together, each on a line of its own.</summary>
/// <param name="Lines">The statements.</param>
/// <param name="Audience">Which reports show it.</param>
internal sealed record Passage(IReadOnlyList<Statement> Lines, Audience Audience = Audience.All) : Block(Audience);

/// <summary>A list of statements under an optional lead.</summary>
/// <param name="Kind">What the list holds (<c>recommendation</c>, <c>claims</c>, <c>runtime</c>, <c>notes</c>), for a page's class.</param>
/// <param name="Lead">A line before the list, or null.</param>
/// <param name="Items">The statements.</param>
/// <param name="Audience">Which reports show it.</param>
internal sealed record BulletList(string Kind, Statement? Lead, IReadOnlyList<Statement> Items, Audience Audience = Audience.All) : Block(Audience);

/// <summary>The scenario's table of variants (<see cref="ResultColumn"/> says its columns).</summary>
/// <param name="Scenario">The scenario.</param>
internal sealed record VariantTable(ScenarioResult Scenario) : Block(Audience.All);

/// <summary>The scenario's charts, for a report that draws: made by the renderer (<see cref="Chart.For"/>), so one that
/// does not draw never makes them.</summary>
/// <param name="Scenario">The scenario.</param>
internal sealed record ChartSet(ScenarioResult Scenario) : Block(Audience.Full);

/// <summary>
/// The runtime's account of the variants whose pool raised its target because work waited, as a compact table: the
/// console's brief form of the runtime list the files print in full.
/// </summary>
/// <param name="Scenario">The scenario.</param>
internal sealed record RuntimeTable(ScenarioResult Scenario) : Block(Audience.Brief);

/// <summary>
/// A scenario's report as blocks, made once from its results and its answer for the console, results.md and
/// report.html alike. Every sentence a report prints about a scenario is made here or in what it calls; a renderer
/// only chooses how a block and each typed piece look, and which blocks it has room for.
/// </summary>
internal static class ScenarioReport
{
    /// <summary>The blocks of <paramref name="scenario"/>'s report, measured on a machine of
    /// <paramref name="processorCount"/> cores, in reading order.</summary>
    public static IReadOnlyList<Block> Of(ScenarioResult scenario, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);

        // A service under load has steps and saturation points, not trials and medians: a report of its own kind.
        if (scenario.Load is { } load)
        {
            return LoadReport.Of(scenario, load, processorCount);
        }

        // A program watched by conclab why is one account, not variants to rank.
        if (scenario.Watched is { } watched)
        {
            return WatchReport.Of(scenario, watched);
        }

        var blocks = new List<Block>();

        // What was run, and against what: the parameters and bounds for the files; the ideal for all.
        var setting = new List<Statement>
        {
            Statement.Join(
                ", ", scenario.Parameters.Select(p => Statement.Of($"{Piece.Code($"{p.Key}={p.Value}")}"))) is { Inlines.Count: > 0 } parameters
                ? Statement.Of($"Parameters: {parameters}.")
                : Statement.Plain("Parameters: none."),
        };
        if (scenario.Bounds.Count > 0)
        {
            setting.Add(
                Statement.Of($"Bounds measured by the run: {Statement.Join(", ", scenario.Bounds.Select(b => Statement.Of($"{Piece.Code(b.Key)} {Piece.Fixed(b.Value, "0.##")}")))}."));
        }

        blocks.Add(new Passage(setting, Audience.Full));
        var lines = new List<Statement>
        {
            scenario.Growth is { } grown
                ? Statement.Of($"Ideal {Piece.Fixed(scenario.IdealMs, "0.##")} ms at {Piece.Code($"{grown.Parameter}={grown.Sizes[0]}")}: " +
                    $"{scenario.IdealReason}; each size has its own{GrownIdeals(grown)}. Ratio is to " +
                    $"{Piece.Variant(grown.BaselineLine ?? scenario.Baseline)} at each size.")
                : Statement.Of($"Ideal {Piece.Fixed(scenario.IdealMs, "0.##")} ms: {scenario.IdealReason}. Ratio is to " +
                    $"{Piece.Variant(scenario.Baseline)}."),
        };
        var recommendations = Analysis.Recommender.Of(scenario, processorCount);
        if (ResultColumn.Best(scenario) is { Summary: { } summary } best)
        {
            var efficiency = summary.ShownEfficiency is { } e ? Statement.Of($", efficiency {Piece.Fixed(e, "0.00")} against the ideal")
                : Statement.Plain(string.Empty);
            // The fastest measured, as the table shows it; said so when its work was not the run's.
            var unlike = Analysis.Recommender.LeftOut(recommendations, best.Name)
                ? Statement.Plain(", but it ran other work than the run describes, and the answer below leaves it out")
                : Statement.Plain(string.Empty);
            lines.Add(
                Statement.Of(Tone.Fastest, $"Fastest: {Piece.Variant(best.Name)}, median {Piece.Ms(summary.MedianWallMs)} ms{efficiency}{unlike}."));
        }

        blocks.Add(new Passage(lines));

        // What to use and what to avoid, a list for each set of work parameters.
        blocks.AddRange(recommendations.Select(r => new BulletList("recommendation", null, RecommendationText.Lines(r, scenario))));

        // How the cost grew with the work (--grow).
        if (scenario.Growth is { Sizes.Count: > 0 } growth)
        {
            blocks.Add(new BulletList("growth", GrowthText.Lead(growth), GrowthText.Lines(growth)));
        }

        // The post's claims: the files say each; the console says the tested ones and the rest in one line.
        var tested = scenario.Claims.Where(c => c.Verdict != Verdict.NotTested).Select(Said).ToList();
        var all = scenario.Claims.Select(Said).ToList();
        if (all.Count > 0)
        {
            blocks.Add(new BulletList("claims", null, all, Audience.Full));
        }

        if (tested.Count > 0)
        {
            blocks.Add(new Passage(tested, Audience.Brief));
        }

        if (RunSummary.NotTestedLine(scenario.Name, scenario.Claims) is { } untested)
        {
            blocks.Add(new Passage([Statement.Plain(untested, Tone.NotTested)], Audience.Brief));
        }

        blocks.Add(new ChartSet(scenario));

        blocks.Add(new VariantTable(scenario));

        // The runtime's account: each variant's sentence in the files; on the console, a table of those whose pool
        // raised its target because work waited (the why of the thread columns).
        var accounts = RuntimeAccountText.Describe(scenario);
        if (accounts.Count > 0)
        {
            blocks.Add(
                new BulletList("runtime", Statement.Plain("What the runtime reported (each variant's median trial):"), accounts, Audience.Full));
            blocks.Add(new RuntimeTable(scenario));
        }

        var notes = scenario.Notes.Select(n => Statement.Of(Tone.Note, $"Note: {n}"))
            .Concat(scenario.Variants.Where(v => v.Stop is not null)
                .Select(
                    v => Statement.Join(
                        string.Empty, [Statement.Plain("Note: "), EarlyStopText.Describe(v.Name, v.Stop!)]) with { Tone = Tone.Note }))
            .Concat(scenario.Variants.SelectMany(v => v.Trials.Where(t => t.Error is not null)
                .Select(t => Statement.Of(Tone.Failure, $"{Piece.Variant(v.Name)} trial {t.Repeat + 1}: {t.Status.ToText()}, {t.Error}"))))
            .ToList();
        if (notes.Count > 0)
        {
            blocks.Add(new BulletList("notes", null, notes));
        }

        return blocks;
    }

    // A claim in words: a tested one as its verdict's sentence, one not tested as what it needs.
    // The ideal at each size after the first: ": 40 ms at 40, 60 ms at 80".
    private static Statement GrownIdeals(GrowthResult growth)
    {
        var rest = growth.Sizes.Select((size, i) => (size, Ms: i < growth.IdealsMs.Count ? growth.IdealsMs[i] : 0)).Skip(1).Where(p => p.Ms > 0)
            .ToList();
        return rest.Count == 0
            ? Statement.Plain(string.Empty)
            : Statement.Of($": {Statement.Join(", ", rest.Select(p => Statement.Of($"{Piece.Fixed(p.Ms, "0.##")} ms at {Piece.Count(p.size)}")))}");
    }

    private static Statement Said(ClaimResult claim) => claim.Verdict == Verdict.NotTested
        ? Statement.Plain($"Not tested by this run: {claim.Claim} ({claim.Reason})", Tone.NotTested)
        : Statement.Plain("Published claim: " + claim.Sentence, claim.Holds ? Tone.Holds : claim.Judged ? Tone.DoesNotHold : Tone.Unjudged);
}
