using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reproduction;

/// <summary>
/// A reproduction's verdicts as crank's agent reads a job's measurements, in the block <see cref="CrankStatistics"/>
/// frames: docs/crank.md lists the names.
/// </summary>
internal static class ReproductionCrankStatistics
{
    /// <summary>
    /// The statistics of a reproduction, stamped <paramref name="at"/>: every claim's verdict on every run that tests it
    /// (<c>conclab/reproduce/SCENARIO/CLAIM/RUN/verdict</c>, as text) and how many rows came to each verdict
    /// (<c>conclab/reproduce/holds</c>, ...).
    /// </summary>
    public static CrankJobStatistics Of(ReproductionResult reproduction, DateTimeOffset at)
    {
        ArgumentNullException.ThrowIfNull(reproduction);
        var metadata = new List<CrankMetadata>();
        var measurements = new List<CrankMeasurement>();
        void Add(string name, object value, string format, string shortDescription, string longDescription)
        {
            metadata.Add(new CrankMetadata("conclab", name, "Last", CrankStatistics.AcrossAgents, format, shortDescription, longDescription));
            measurements.Add(new CrankMeasurement(name, at, value));
        }

        var named = new HashSet<string>(StringComparer.Ordinal);
        foreach (var row in reproduction.Claims)
        {
            var name = Name(CrankStatistics.Part(row.Scenario), CrankStatistics.Part(row.Result.Id) + "/" + CrankStatistics.Part(row.Run), "verdict");
            for (var n = 2; !named.Add(name); n++)
            {
                // Never two measurements of one name: crank would fold them into one.
                name = Name(CrankStatistics.Part(row.Scenario), $"{CrankStatistics.Part(row.Result.Id)}/{CrankStatistics.Part(row.Run)}-{n}",
                    "verdict");
            }

            Add(
                name, row.Result.VerdictText,
                    string.Empty, $"{row.Result.Id} ({row.Run})", $"{row.Post}: {row.Result.Claim} ({row.RunKind} run {row.Run}): the verdict here");
        }

        foreach (var (verdict, id) in VerdictIds)
        {
            Add(Name(null, null, id), reproduction.Claims.Count(c => c.Result.Verdict == verdict),
                "n0", $"claims: {ClaimResult.Text(verdict, "under a condition")}", $"rows (a claim on a run that tests it) whose verdict is " +
                    $"'{ClaimResult.Text(verdict, "under a condition")}'");
        }

        Add(Name(null, null, "seconds"), Math.Round(reproduction.Seconds, 1), "n0", "reproduction (s)", "how long the reproduction took, s");
        return new CrankJobStatistics(metadata, measurements);
    }

    /// <summary>The block of a reproduction, as <see cref="CrankStatistics.Block"/> writes a run's.</summary>
    public static string Block(ReproductionResult reproduction, DateTimeOffset at) => CrankStatistics.Framed(Of(reproduction, at));

    private static readonly (Verdict Verdict, string Id)[] VerdictIds =
    [
        (Verdict.Holds, "holds"),
        (Verdict.DoesNotHold, "doesNotHold"),
        (Verdict.HoldsOnly, "holdsOnly"),
        (Verdict.CouldNotJudge, "couldNotJudge"),
        (Verdict.NotTested, "notTested"),
    ];

    // conclab/reproduce[/SCENARIO[/CLAIM/RUN]]/QUANTITY, each part already made safe.
    private static string Name(string? scenario, string? claimAndRun, string quantity) =>
        string.Join('/', new[] { "conclab", "reproduce", scenario, claimAndRun, quantity }.OfType<string>());
}
