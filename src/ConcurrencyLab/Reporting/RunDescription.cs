using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>The sentences every report opens with, so Markdown and HTML say the same thing the same way.</summary>
internal static class RunDescription
{
    /// <summary>The machine and runtime: <c>Linux, .NET 10, 2 logical cores, x64, GC workstation, the trials' code
    /// precompiled (ReadyToRun).</c></summary>
    public static string Machine(RunResult run)
    {
        ArgumentNullException.ThrowIfNull(run);
        // Whether the lab's code was compiled before the trials began, where known: it changes their start-up, their jitMs and
        // how a workload's loops run in the region (docs/method.md).
        return Machine(run.Environment) + run.Environment.ReadyToRun switch
        {
            true => ", the trials' code precompiled (ReadyToRun).",
            false => ", the trials' code compiled as it ran.",
            null => ".",
        };
    }

    /// <summary>The machine and runtime, without a full stop: "Debian..., .NET 10.0.12, 2 logical cores, x64, GC workstation, concurrent".</summary>
    public static string Machine(EnvironmentInfo env)
    {
        ArgumentNullException.ThrowIfNull(env);
        // A results file may hold anything here: each part is one line's worth of text.
        static string Part(string text) => Hosting.ForeignText.Line(text, 120);
        return $"{Part(env.Os)}, {Part(env.Runtime)}, {env.ProcessorCount} logical cores, {Part(env.Architecture)}, GC {Part(env.GcMode)}";
    }

    /// <summary>How the trials were run: how many, how isolated, in what order, with what seed, and when.</summary>
    public static string Method(RunResult run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var s = run.Settings;
        if (run.Scenarios.Count > 0 && run.Scenarios.All(x => x.Load is not null))
        {
            return $"Open-loop load from this process, {s.Repeat} repeat{(s.Repeat == 1 ? string.Empty : "s")} of each variant's " +
                $"steps{(s.Isolated ? ", each against a fresh service process" : string.Empty)}, variant order rotated each repeat, seed " +
                $"{s.Seed}{(s.Quick ? ", quick scale" : string.Empty)}. Started {run.StartedAt}.";
        }

        // A watch is no batch of trials: what was watched, from outside, is its method.
        if (run.Scenarios.Count > 0 && run.Scenarios.All(x => x.Watched is not null))
        {
            return $"A program watched from outside its process through the runtime's diagnostics (conclab why): its runtime's events, " +
                $"its stack samples about once a millisecond and its pool's meter once a second. Started {run.StartedAt}.";
        }

        // The two-trial rule is named where a variant stopped by it, so that a run without one says nothing of it.
        var afterTwo = run.Scenarios.Any(
            sc => sc.Variants.Any(v => v.Stop is { Reason: EarlyStopReason.OutOfContention } stop
                && stop.Trials < Running.EarlyStopping.MinimumTrials))
            ? $", or after {Running.EarlyStopping.FarMinimumTrials} at {Running.EarlyStopping.FarOutOfContentionRatio:0}x in a workload of your own"
            : string.Empty;
        return $"{(s.Adaptive ? "At most " : string.Empty)}{s.Repeat} measured trials per " +
            $"variant{(s.Adaptive ? $" (one stops once out of contention after {Running.EarlyStopping.MinimumTrials}{afterTwo}, or tight after {Running.EarlyStopping.TightMinimumTrials})" : string.Empty)} after {s.Warmup} warmup, {(s.Isolated ? "each in a fresh process" : "all in one process")}, "
            + $"{(s.FixedOrder ? "variants in a fixed order" : "variant order rotated each round")}, seed {s.Seed}{(s.Quick ? ", quick " +
                "scale" : string.Empty)}. Started {run.StartedAt}.";
    }
}
