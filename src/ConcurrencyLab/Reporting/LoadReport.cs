using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>A table of rows of text, the same in every report: its headers, which columns hold numbers, and its rows.</summary>
/// <param name="Kind">What the table holds, for a page's class: <c>load-steps</c>.</param>
/// <param name="Headers">The column headers.</param>
/// <param name="Numeric">For each column, whether it holds numbers (right-aligned).</param>
/// <param name="Rows">The rows, a cell per header.</param>
/// <param name="Audience">Which reports show it.</param>
internal sealed record TextTable(
    string Kind,
    IReadOnlyList<string> Headers,
    IReadOnlyList<bool> Numeric,
    IReadOnlyList<IReadOnlyList<string>> Rows,
    Audience Audience = Audience.All) : Block(Audience)
{
    /// <summary>Which rows a reader's eye belongs on (a load step that did not keep up), by row; empty for none.</summary>
    public IReadOnlyList<bool> Flagged { get; init; } = [];
}

/// <summary>
/// The report of a service under open-loop load (<see cref="LoadResult"/>), as blocks: how it was loaded, each
/// variant's saturation point and why, the steps as a table, the runtime's account of each step, and the notes.
/// </summary>
internal static class LoadReport
{
    /// <summary>A share of the machine's CPU above which the load generator is said to have competed with the service.</summary>
    public const double GeneratorCpuWarning = 0.5;

    /// <summary>The blocks of <paramref name="scenario"/>'s load report, measured on a machine of <paramref name="processorCount"/> cores.</summary>
    public static IReadOnlyList<Block> Of(ScenarioResult scenario, LoadResult load, int processorCount)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(load);
        var blocks = new List<Block>();
        var how = new List<Statement>
        {
            load.Command is { } command
                ? Statement.Of($"Service: {Piece.Code(load.Url)}, started by the lab with {Piece.Code(command)} for each variant and " +
                    $"repeat, and stopped after.")
                : load.Variants.Any(v => v.Command is not null)
                ? Statement.Of($"Services: {Piece.Code(load.Url)}, each variant's started by the lab with its own command for each repeat, " +
                    $"and stopped after: {Statement.Join("; ", load.Variants.Select(v => Statement.Of($"{Piece.Variant(v.Name)} with {Piece.Code(v.Command ?? "?")}")))}.")
                : load.ProcessId is { } pid
                    ? Statement.Of($"Service: {Piece.Code(load.Url)}, already running as process " +
                        $"{Piece.Code(pid.ToString(CultureInfo.InvariantCulture))}, whose runtime the lab attached to for each step's account.")
                    : Statement.Of($"Service: {Piece.Code(load.Url)}, already running: no runtime account (--pid names its process to read one)."),
            Statement.Of($"Each step sent {load.Arrivals} arrivals{(load.Protocol is "HTTP/2" ? " over HTTP/2" : string.Empty)} for " +
                $"{Piece.Fixed(load.StepSeconds, "0.##")} s after {Piece.Fixed(load.WarmupSeconds, "0.##")} s of warm-up at its rate; a " +
                $"request timed out after {Piece.Fixed(load.TimeoutSeconds, "0.##")} s. Latency is from each request's intended send time " +
                $"(corrected for coordinated omission); service time from its actual send."),
            Statement.Of($"A step keeps up when at least {Piece.Fixed(LoadSaturation.KeepUpShare * 100, "0")}% of its requests complete and " +
                $"the corrected p99 stays under the SLO ({(load.SloMs is { } slo ? Statement.Of($"{Piece.Ms(slo)} ms, as given") : Statement.Plain($"{Saturation.DefaultSloFactor:0}x the variant's lowest step's p50"))}); the saturation point is the highest rate kept up below the lowest one that was not."),
        };
        blocks.Add(new Passage(how));

        var said = load.Variants.Select(v => SaturationLine(v, load)).ToList();
        if (Best(load) is { } best)
        {
            said.Insert(0, best);
        }

        blocks.Add(new BulletList("saturation", null, said));
        blocks.Add(new ChartSet(scenario));
        blocks.Add(StepTable(load, brief: true));
        blocks.Add(StepTable(load, brief: false));

        var accounts = load.Variants.SelectMany(v => v.Steps.Where(s => s.Runtime is not null).Select(s => AccountLine(v, s, load))).ToList();
        if (accounts.Count > 0)
        {
            blocks.Add(new BulletList("runtime", Statement.Plain("What the service's runtime reported over each step:"), accounts, Audience.Full));
        }

        var notes = new List<Statement>();
        foreach (var variant in load.Variants)
        {
            var busiest = variant.Steps.Where(s => !s.Stopped && s.WallMs > 0).MaxBy(s => s.GeneratorCpuMs / s.WallMs);
            if (busiest is not null && Saturation.CauseOf(busiest, processorCount).GeneratorCpuShare is var share && share > GeneratorCpuWarning)
            {
                notes.Add(
                    Statement.Of(
                        Tone.Note, $"Note: at {Piece.Count(busiest.OfferedPerSecond)}/s the load generator used " +
                            $"{Piece.Fixed(share * 100, "0")}% of the machine's {Piece.Count(processorCount)} cores for " +
                            $"{Piece.Variant(variant.Name)}: it competes with a service on the same machine, so that service had less than " +
                            $"the whole machine."));
            }

            notes.AddRange(variant.Notes.Select(n => Statement.Of(Tone.Failure, $"{Piece.Variant(variant.Name)}: {n}")));
        }

        notes.AddRange(scenario.Notes.Select(n => Statement.Of(Tone.Note, $"Note: {n}")));
        if (notes.Count > 0)
        {
            blocks.Add(new BulletList("notes", null, notes));
        }

        return blocks;
    }

    // The variant that kept up with the most, said only where its rate is above every other variant's highest.
    private static Statement? Best(LoadResult load)
    {
        var rated = load.Variants.Where(v => v.Saturation?.RatePerSecond is not null).ToList();
        if (rated.Count < 2)
        {
            return null;
        }

        var best = rated.MaxBy(v => v.Saturation!.RatePerSecond!.Value)!;
        var low = best.Saturation!.LowPerSecond ?? best.Saturation.RatePerSecond!.Value;
        var others = rated.Where(v => v != best).ToList();
        var apart = others.All(o => (o.Saturation!.HighPerSecond ?? o.Saturation.RatePerSecond!.Value) < low);
        if (!apart)
        {
            return Statement.Of($"No variant kept up with clearly the most: " +
                $"{Statement.Join(" and ", rated.Select(v => Statement.Of($"{Piece.Variant(v.Name)}")))} overlap over the repeats.");
        }

        var next = others.MaxBy(o => o.Saturation!.RatePerSecond!.Value)!;
        var repeats = best.Saturation.PerRepeat.Count;

        // A climb that stopped at the generator or at the highest rate run found a floor, not the point itself.
        var atLeast = best.Saturation.Limit is LoadLimit.Generator or LoadLimit.NotReached ? "at least " : string.Empty;
        return Statement.Of(
            Tone.Fastest, $"Keeps up with the most: {Piece.Variant(best.Name)}, " +
                $"{atLeast}{Piece.Count(best.Saturation.RatePerSecond!.Value)}/s, " +
                $"{atLeast}{Piece.Multiple(best.Saturation.RatePerSecond!.Value / next.Saturation!.RatePerSecond!.Value)}x " +
                $"{Piece.Variant(next.Name)}{(repeats < 2 ? " (one repeat: no range to tell them apart by; --repeat 3 gives one)" : string.Empty)}.");
    }

    /// <summary>A variant's saturation point, what stopped it, and the runtime's why.</summary>
    internal static Statement SaturationLine(LoadVariant variant, LoadResult load)
    {
        if (variant.Steps.Where(s => s.Connections is not null && !s.Stopped).ToList() is { Count: > 0 } closed)
        {
            var rates = closed.Select(s => s.CompletedPerSecond).Order().ToList();
            var p99 = closed.Where(s => s.Latency is not null).Select(s => s.Latency!.P99Ms).Order().ToList();
            var spread = rates.Count > 1
                ? Statement.Of($" ({Piece.Count(rates[0])} to {Piece.Count(rates[^1])} over {Piece.Count(rates.Count)} repeats)")
                    : Statement.Plain(string.Empty);
            var latency = p99.Count > 0 ? Statement.Of($", p99 {Piece.Ms(p99[p99.Count / 2])} ms") : Statement.Plain(string.Empty);
            return Statement.Of($"{Piece.Variant(variant.Name)} answered {Piece.Count(rates[rates.Count / 2])} requests a second with " +
                $"{Piece.Count(closed[0].Connections!.Value)} connections in a closed loop{spread}{latency}: the most it answers at that " +
                $"concurrency, not a rate it keeps up with.");
        }

        if (variant.Saturation is not { } saturation)
        {
            return Statement.Of(Tone.Failure, $"{Piece.Variant(variant.Name)}: no step was measured.");
        }

        var range = saturation is { LowPerSecond: { } low, HighPerSecond: { } high }
            ? Statement.Of($" ({Piece.Count(low)} to {Piece.Count(high)} over {Piece.Count(saturation.PerRepeat.Count)} repeats)")
            : Statement.Plain(string.Empty);
        var failedStep = variant.Steps.Where(s => s.OfferedPerSecond == saturation.FailedAtPerSecond
            && (!s.Stopped || s.ServiceExitCode is not null)).MinBy(s => Math.Abs(s.Repeat));
        var why = (saturation.Limit, failedStep) switch
        {
            (LoadLimit.Died or LoadLimit.BelowLowest, { ServiceExitCode: { } code } step) =>
                Statement.Of($"at {Piece.Count(step.OfferedPerSecond)}/s the service exited (code " +
                    $"{Piece.Code(code.ToString(CultureInfo.InvariantCulture))}) during the step, which it did not live through (its last " +
                    $"output is in the notes)"),
            (LoadLimit.Completions or LoadLimit.BelowLowest, { } step) when step.CompletedShare < LoadSaturation.KeepUpShare =>
                Statement.Of($"at {Piece.Count(step.OfferedPerSecond)}/s only {Piece.Fixed(step.CompletedShare * 100, "0.#")}% of the " +
                    $"requests completed ({Piece.Count(step.CompletedPerSecond)}/s){Errors(step)}"),
            (LoadLimit.Latency or LoadLimit.BelowLowest, { Latency: { } latency } step) =>
                Statement.Of($"at {Piece.Count(step.OfferedPerSecond)}/s the corrected p99 was {Piece.Ms(latency.P99Ms)} ms, over the SLO " +
                    $"of {Piece.Ms(variant.SloMs ?? 0)} ms (service time p99 {Piece.Ms(step.Service?.P99Ms ?? 0)} ms)"),
            (LoadLimit.Generator, { } step) =>
                Statement.Of($"at {Piece.Count(step.OfferedPerSecond)}/s the load generator fell behind its own schedule " +
                    $"({Piece.Fixed(step.LateShare * 100, "0.#")}% of sends late, p99 lag {Piece.Ms(step.Lag?.P99Ms ?? 0)} ms), so rates " +
                    $"above were not measured: the service may keep up with more"),
            _ => Statement.Plain(string.Empty),
        };

        var lowest = variant.Steps.Where(s => !s.Stopped || s.ServiceExitCode is not null).Select(s => s.OfferedPerSecond).DefaultIfEmpty(0).Min();
        var main = saturation switch
        {
            // A step above it cut short (in files from before a service's exit was kept on its step) tested nothing.
            { Limit: LoadLimit.NotReached,
                RatePerSecond: { } rate } when variant.Steps.FirstOrDefault(s => s.Stopped && s.OfferedPerSecond > rate) is { } cut =>
                Statement.Of($"{Piece.Variant(variant.Name)} kept up at every rate run to the end, up to {Piece.Count(rate)}/s{range}; the " +
                    $"step at {Piece.Count(cut.OfferedPerSecond)}/s was cut short, so whether it keeps up with more could not be judged."),
            { Limit: LoadLimit.NotReached, RatePerSecond: { } rate }
                => Statement.Of($"{Piece.Variant(variant.Name)} kept up at every rate run, up to {Piece.Count(rate)}/s{range}: its " +
                    $"saturation point is higher{(load.Searched ? Statement.Plain(string.Empty) : Statement.Plain("; a higher --rate, or " +
                    "--rate auto, finds it"))}."),
            { RatePerSecond: { } rate } => Statement.Of($"{Piece.Variant(variant.Name)} keeps up to {Piece.Count(rate)}/s{range}: {why}."),
            { Limit: LoadLimit.Generator } => Statement.Of($"{Piece.Variant(variant.Name)}: could not be judged: {why}."),
            _
                => Statement.Of(
                    Tone.Avoid, $"{Piece.Variant(variant.Name)} did not keep up even at {Piece.Count(lowest)}/s, the lowest rate run: {why}."),
        };
        return saturation.Cause is { } cause && CauseLine(cause) is { } causeLine ? Statement.Of(main.Tone, $"{main} {causeLine}") : main;
    }

    // The runtime's why at the failed rate: the pool's raises, where threads blocked, and who had the CPU.
    private static Statement? CauseLine(LoadCause cause)
    {
        var parts = new List<Statement>();
        if (cause.StarvationRaises + cause.BlockingRaises > 0)
        {
            parts.Add(
                Statement.Of($"by the runtime's account the pool added threads {Piece.Count(cause.StarvationRaises)} times for starvation " +
                    $"and {Piece.Count(cause.BlockingRaises)} for " +
                    $"blocking{(cause.PoolThreadsAtEnd is { } end ? Statement.Of($", to a target of {Piece.Count(end)}") : Statement.Plain(string.Empty))}"));
        }

        if (cause.TopSite is { } site && cause.TopSiteShare is { } share)
        {
            parts.Add(
                Statement.Of($"its threads were most often not running (by their stacks) at {Piece.Code(SiteText(site))} ({site.State}, " +
                    $"{Piece.Fixed(share * 100, "0")}% of their time not running)"));
        }

        if (cause.LockWaitMs is { } lockMs && lockMs >= cause.WallMs * 0.1)
        {
            parts.Add(Statement.Of($"threads waited {Piece.Ms(lockMs)} ms in all to enter locks"));
        }

        if (cause.ServiceCpuShare is { } service)
        {
            parts.Add(
                Statement.Of($"the service used {Piece.Fixed(service * 100, "0")}% of the machine's CPU and the load generator " +
                    $"{Piece.Fixed(cause.GeneratorCpuShare * 100, "0")}%"));
        }

        return parts.Count == 0 ? null : Statement.Of($"There, {Statement.Join("; ", parts)}.");
    }

    private static string SiteText(BlockingSite site)
    {
        var where = site.Site.Length > 0 ? site.Site : site.Api;
        return site.File is { } file && site.Line is { } line ? $"{where} ({file}:{line.ToString(CultureInfo.InvariantCulture)})" : where;
    }

    private static Statement Errors(LoadStep step)
    {
        var failed = step.Failed.Sum(f => f.Value);
        if (step.TimedOut + failed == 0)
        {
            return Statement.Plain(string.Empty);
        }

        var kinds = step.Failed.OrderByDescending(f => f.Value).Take(3).Select(f => Statement.Of($"{Piece.Count(f.Value)} {f.Key}"));
        var timedOut = step.TimedOut > 0 ? [Statement.Of($"{Piece.Count(step.TimedOut)} timed out")] : Array.Empty<Statement>();
        return Statement.Of($"; {Statement.Join(", ", timedOut.Concat(kinds))}");
    }

    // One line of the runtime's account of a step.
    private static Statement AccountLine(LoadVariant variant, LoadStep step, LoadResult load)
    {
        var runtime = step.Runtime!;
        var repeat = load.Variants.Any(v => v.Steps.Any(s => s.Repeat > 0)) ? Statement.Of($" (repeat {Piece.Count(step.Repeat + 1)})")
            : Statement.Plain(string.Empty);
        var parts = new List<Statement>();
        var raises = runtime.Injections(PoolAdjustmentReason.Starvation) + runtime.Injections(PoolAdjustmentReason.CooperativeBlocking);
        parts.Add(runtime.PoolAdjustments.Count > 0
            ? Statement.Of($"pool target {(runtime.PoolTargetAtStart is { } start ? Piece.Count(start) : Piece.Count(runtime.PoolAdjustments[0].Threads))} to {Piece.Count(runtime.PoolAdjustments[^1].Threads)}, {Piece.Count(raises)} raises for starvation or blocking")
            : Statement.Plain("no pool adjustment"));
        if (runtime.LockContentions is { Count: > 0 } locks)
        {
            parts.Add(Statement.Of($"{Piece.Count(locks.Count)} lock contentions, {Piece.Ms(locks.TotalMs)} ms waited"));
        }

        if (runtime.Waits is { Count: > 0 } waits)
        {
            parts.Add(Statement.Of($"{Piece.Count(waits.Count)} waits, {Piece.Ms(waits.TotalMs)} ms"));
        }

        if (runtime.GcCollections > 0)
        {
            parts.Add(
                Statement.Of($"{Piece.Count(runtime.GcCollections)} GCs{(runtime.GcPauses is { } pauses ? Statement.Of($", {Piece.Ms(pauses.TotalMs)} ms paused") : Statement.Plain(string.Empty))}"));
        }

        if (runtime.Threads?.Top is { } top)
        {
            parts.Add(Statement.Of($"most time not running at {Piece.Code(SiteText(top.Site))} ({Piece.Fixed(top.Share * 100, "0")}%)"));
        }

        if (runtime.Note is { } note)
        {
            parts.Add(Statement.Plain(note));
        }

        return Statement.Of($"{Piece.Variant(variant.Name)} at {Piece.Count(step.OfferedPerSecond)}/s{repeat}: {Statement.Join("; ", parts)}.");
    }

    // The steps: the console's few columns, or the files' every one.
    private static TextTable StepTable(LoadResult load, bool brief)
    {
        var repeats = load.Variants.Any(v => v.Steps.Any(s => s.Repeat > 0));
        var headers = new List<string> { "variant" };
        if (repeats)
        {
            headers.Add("repeat");
        }

        headers.AddRange(brief
            ? ["offered /s", "done /s", "done %", "p50 ms", "p99 ms", "errors", "outcome"]
            : ["offered /s", "sent /s", "done /s", "done %", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "service p99 ms", "late",
                "lag p99 ms", "timed out", "failed", "generator CPU ms", "service CPU ms", "outcome"]);
        var rows = new List<IReadOnlyList<string>>();
        var flagged = new List<bool>();
        foreach (var variant in load.Variants)
        {
            foreach (var step in variant.Steps.OrderBy(s => s.Repeat).ThenBy(s => s.OfferedPerSecond))
            {
                var row = new List<string> { variant.Name };
                if (repeats)
                {
                    row.Add((step.Repeat + 1).ToString(CultureInfo.InvariantCulture));
                }

                var judged = Saturation.Judge(step, variant.SloMs);
                var outcome = Outcome(judged);
                flagged.Add(judged != StepOutcome.KeptUp);
                var failed = step.Failed.Sum(f => f.Value);
                row.AddRange(brief
                    ? [NumberText.Count(step.OfferedPerSecond), NumberText.Count(step.CompletedPerSecond), Share(step.CompletedShare),
                        Q(step.Latency?.P50Ms), Q(step.Latency?.P99Ms), NumberText.Count(step.TimedOut + failed), outcome]
                    : [NumberText.Count(step.OfferedPerSecond), NumberText.Count(step.SentPerSecond), NumberText.Count(step.CompletedPerSecond),
                        Share(step.CompletedShare), Q(step.Latency?.P50Ms), Q(step.Latency?.P90Ms), Q(step.Latency?.P99Ms), Q(step.Latency?.P999Ms),
                            Q(step.Latency?.MaxMs), Q(step.Service?.P99Ms), NumberText.Count(step.Late),
                                Q(step.Lag?.P99Ms), NumberText.Count(step.TimedOut), failed == 0 ? "0"
                                    : string.Join(", ", step.Failed.OrderByDescending(f => f.Value).Select(f => $"{f.Value} {f.Key}")),
                                        NumberText.Ms(step.GeneratorCpuMs), step.ServiceCpuMs is { } cpu ? NumberText.Ms(cpu) : "-", outcome]);
                rows.Add(row);
            }
        }

        var numeric = headers.Select(h => h is not ("variant" or "outcome" or "failed")).ToList();
        return new TextTable(brief ? "load-steps-brief" : "load-steps", headers, numeric, rows, brief ? Audience.Brief
            : Audience.Full) { Flagged = flagged };

        static string Q(double? ms) => ms is { } v ? NumberText.Ms(v) : "-";
        static string Share(double share) => (share * 100).ToString("0.#", CultureInfo.InvariantCulture);
    }

    private static string Outcome(StepOutcome outcome) => outcome switch
    {
        StepOutcome.KeptUp => "kept up",
        StepOutcome.Completions => "fell behind",
        StepOutcome.Latency => "over SLO",
        StepOutcome.Generator => "generator late",
        StepOutcome.Died => "service exited",
        StepOutcome.ClosedLoop => "closed loop",
        _ => "stopped",
    };
}
