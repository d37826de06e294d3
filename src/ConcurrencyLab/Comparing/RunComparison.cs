using System.Globalization;
using ConcurrencyLab.Results;
using ConcurrencyLab.Statistics;
using Perfolizer.Mathematics.SignificanceTesting.Base;
using Perfolizer.Mathematics.SignificanceTesting.MannWhitney;
using Perfolizer.Metrology;
using Pragmastat;

namespace ConcurrencyLab.Comparing;

/// <summary>What the comparison of one variant's trials in two runs found.</summary>
internal enum ComparisonVerdict
{
    /// <summary>The new run's wall times are significantly higher.</summary>
    Slower,

    /// <summary>The new run's wall times are significantly lower.</summary>
    Faster,

    /// <summary>No significant difference.</summary>
    Same,

    /// <summary>So few ok trials that no outcome of the test could be significant.</summary>
    TooFewTrials,

    /// <summary>The variant is in the old run only, or has no ok trial there.</summary>
    OnlyInOld,

    /// <summary>The variant is in the new run only, or has no ok trial there.</summary>
    OnlyInNew,

    /// <summary>The variant is in both runs but has no ok trial in either.</summary>
    NoOkTrials,
}

/// <summary>One variant of one scenario in both runs.</summary>
internal sealed record ComparisonRow(
    string Scenario,
    string Variant,
    int OldTrials,
    int NewTrials,
    double? OldMedianMs,
    double? NewMedianMs,
    double? PValue,
    ComparisonVerdict Verdict)
{
    /// <summary>New median over old: above 1 is slower.</summary>
    public double? Ratio => OldMedianMs is > 0 && NewMedianMs is { } current ? current / OldMedianMs : null;
}

/// <summary>
/// Two runs compared variant by variant: the ratio of their median wall times, and whether the difference is
/// significant by a two-sided Mann-Whitney U test on the ok trials' wall times (Perfolizer), at
/// <see cref="Alpha"/>. A rank test suits timings, which are skewed and few; it needs enough trials to be
/// able to say anything (at 5%, 4 and 4, or 3 and 5), and a row says so when there were fewer.
/// </summary>
internal sealed record RunComparison(double Alpha, IReadOnlyList<ComparisonRow> Rows, IReadOnlyList<string> Notes)
{
    /// <summary>Whether any variant got significantly slower.</summary>
    public bool AnySlower => Rows.Any(r => r.Verdict == ComparisonVerdict.Slower);

    /// <summary>Compares <paramref name="old"/> with <paramref name="current"/> at significance level <paramref name="alpha"/>.</summary>
    public static RunComparison Of(RunResult old, RunResult current, double alpha = 0.05)
    {
        ArgumentNullException.ThrowIfNull(old);
        ArgumentNullException.ThrowIfNull(current);
        if (!double.IsFinite(alpha) || alpha <= 0 || alpha >= 1)
        {
            throw new ArgumentOutOfRangeException(nameof(alpha), alpha, "a significance level is above 0 and below 1");
        }
        var rows = new List<ComparisonRow>();
        var notes = new List<string>();
        if (old.Environment is { } before && current.Environment is { } after
            && (before.ProcessorCount != after.ProcessorCount || before.Runtime != after.Runtime || before.Os != after.Os
                || before.MachineName != after.MachineName))
        {
            notes.Add($"the runs were on different machines or runtimes ({Describe(before)} against {Describe(after)}): a difference may be " +
                $"the machine's.");
        }

        if (old.Environment?.ReadyToRun is { } oldPrecompiled && current.Environment?.ReadyToRun is { } newPrecompiled
            && oldPrecompiled != newPrecompiled)
        {
            notes.Add($"the trials' code was {Compiled(oldPrecompiled)} in the first run and {Compiled(newPrecompiled)} in the second: " +
                $"start-up, JIT and CPU-bound regions can differ for that alone.");
        }

        foreach (var scenario in old.Scenarios.Select(s => s.Name).Union(current.Scenarios.Select(s => s.Name)))
        {
            var a = old.Scenarios.FirstOrDefault(s => s.Name == scenario);
            var b = current.Scenarios.FirstOrDefault(s => s.Name == scenario);
            if (a is not null && b is not null)
            {
                var changed = a.Parameters.Keys.Union(b.Parameters.Keys)
                    .Where(k => !SameSetting(a.Parameters.GetValueOrDefault(k), b.Parameters.GetValueOrDefault(k)))
                    .Select(k => $"--{k} {a.Parameters.GetValueOrDefault(k) ?? "(none)"} -> {b.Parameters.GetValueOrDefault(k) ?? "(none)"}")
                    .ToList();
                if (changed.Count > 0)
                {
                    notes.Add($"{scenario} ran with other parameters ({string.Join(", ", changed)}): its rows compare different workloads.");
                }
            }

            var variants = (a?.Variants.Select(v => v.Name) ?? []).Union(b?.Variants.Select(v => v.Name) ?? []);
            foreach (var variant in variants)
            {
                var inBoth = a?.Variants.Any(v => v.Name == variant) == true && b?.Variants.Any(v => v.Name == variant) == true;
                rows.Add(Compare(scenario, variant, OkWalls(a, variant), OkWalls(b, variant), alpha, inBoth));
            }
        }

        // Each test may be wrong by chance alpha of the time; over many variants that adds up.
        var tested = rows.Count(r => r.PValue is not null);
        if (tested * alpha >= 0.25)
        {
            notes.Add($"{tested} variants were tested at {(alpha * 100).ToString("0.###", CultureInfo.InvariantCulture)}%: about " +
                $"{(tested * alpha).ToString("0.#", CultureInfo.InvariantCulture)} of them would show a significant difference by chance " +
                $"alone, so one such row on its own is weak evidence; rerun to confirm it.");
        }

        return new RunComparison(alpha, rows, notes);
    }

    /// <summary>
    /// Whether two recorded parameter values set the same thing: <c>0.80</c> and <c>0.8</c> do, as do <c>4,40</c>
    /// and <c>4, 40</c>; only what a value means counts, not how one version of conclab wrote it.
    /// </summary>
    internal static bool SameSetting(string? a, string? b)
    {
        if (a == b)
        {
            return true;
        }

        if (a is null || b is null)
        {
            return false;
        }

        var (left, right) = (a.Split(',', StringSplitOptions.TrimEntries), b.Split(',', StringSplitOptions.TrimEntries));
        return left.Length == right.Length
            && left.Zip(right).All(pair => pair.First == pair.Second || (Number(pair.First) is { } x && Number(pair.Second) is { } y && x == y));

        static double? Number(string text) => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;
    }

    private static string Compiled(bool precompiled) => precompiled ? "precompiled (ReadyToRun)" : "compiled as it ran";

    private static string Describe(EnvironmentInfo environment) =>
        $"{environment.MachineName}, {environment.ProcessorCount.ToString(CultureInfo.InvariantCulture)} cores, {environment.Runtime}";

    private static double[] OkWalls(ScenarioResult? scenario, string variant) =>
        [.. scenario?.Variants.FirstOrDefault(v => v.Name == variant)?.Trials.Where(t => t.Status == TrialStatus.Ok).Select(t => t.WallMs) ?? []];

    private static ComparisonRow Compare(string scenario, string variant, double[] before, double[] after, double alpha, bool inBoth)
    {
        double? Median(double[] walls) => walls.Length == 0 ? null : MedianEstimate.MedianOf(walls);
        var row = new ComparisonRow(scenario, variant, before.Length, after.Length, Median(before), Median(after), null, ComparisonVerdict.Same);
        if (before.Length == 0 && after.Length == 0 && inBoth)
        {
            return row with { Verdict = ComparisonVerdict.NoOkTrials };
        }

        if (before.Length == 0 || after.Length == 0)
        {
            return row with { Verdict = before.Length == 0 ? ComparisonVerdict.OnlyInNew : ComparisonVerdict.OnlyInOld };
        }

        if (SmallestPValue(before.Length, after.Length) >= alpha)
        {
            return row with { Verdict = ComparisonVerdict.TooFewTrials };
        }

        var p = MannWhitneyTest.Instance.Perform(new Sample(after), new Sample(before), AlternativeHypothesis.TwoSides, Threshold.Zero).PValue.Value;
        // The direction comes from the trials themselves, not the medians' ratio (which is undefined for a 0
        // median and says nothing when the medians tie): the median of every new-minus-old difference.
        var verdict = p >= alpha ? ComparisonVerdict.Same : Shift(before, after) > 0 ? ComparisonVerdict.Slower : ComparisonVerdict.Faster;
        return row with { PValue = p, Verdict = verdict };
    }

    /// <summary>The Hodges-Lehmann shift: the median of all differences between a new and an old wall time.</summary>
    internal static double Shift(double[] before, double[] after) =>
        MedianEstimate.MedianOf(after.SelectMany(x => before.Select(y => x - y)));

    /// <summary>
    /// The smallest two-sided p-value a rank test can give for samples of <paramref name="n"/> and
    /// <paramref name="m"/>: when the two do not overlap at all, 2 / C(n + m, n).
    /// </summary>
    public static double SmallestPValue(int n, int m)
    {
        double combinations = 1;
        for (var i = 1; i <= Math.Min(n, m); i++)
        {
            combinations = combinations * (n + m - Math.Min(n, m) + i) / i;
        }

        return Math.Min(1, 2 / combinations);
    }
}
