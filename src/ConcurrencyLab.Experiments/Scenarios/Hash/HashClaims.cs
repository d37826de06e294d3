using System.Globalization;
using ConcurrencyLab.Reproduction;

namespace ConcurrencyLab.Scenarios.Hash;

/// <summary>
/// What the file-hashing post (seeds/004) claims, and how each claim is decided: 512 files of 16 MiB from a cold
/// cache, hashed with MD5 by 16 to 128 workers fed by a Channel, on Windows with a USB SSD. The claims are about
/// a cold cache, so a run whose files were not cold cannot judge them.
/// </summary>
internal static class HashClaims
{
    private const string Main = "hash";

    public static PublishedClaims All { get; } = new(
        "seeds/004: sync vs async file hashing with N workers fed by a Channel",
        [new ClaimRun { Key = Main, Variants = ["sync@16", "sync@128", "async@16", "async@128"], Repeat = 3 }],
        [
            new Claim("hash-async-flat", "Async hashing keeps its rate from 16 to 128 workers", "22.2 files/s at 16 and at 128 (cold cache)", [Main], AsyncFlat),
            new Claim("hash-sync-falls", "Sync hashing falls by about 40% from 16 to 128 workers", "22.1 to 13.4 files/s (cold cache)", [Main], SyncFalls),
        ]);

    /// <summary>
    /// async's rate at the most workers within 10% of its rate at the fewest, interval and all: flat. Clear of
    /// 5% either way: it moved. Between, the trials are too spread to tell.
    /// </summary>
    internal static Judgement AsyncFlat(ClaimEvidence evidence)
    {
        var (fewest, most, rate) = Trend(evidence, "async");
        var figure = Describe(evidence, "async", fewest, most, rate);
        return rate.Low >= 0.9 && rate.High <= 1.1 ? Judgement.Holds(figure, "the rate does not depend on how many read at once")
            : rate.Above(1.05) || rate.Below(0.95) ? Judgement.DoesNotHold(figure, $"async {(rate.Value < 1 ? "fell" : "rose")}, interval and all")
            : throw new MissingEvidenceException($"{figure}: the trials are too spread to tell flat from a change of 5-10%");
    }

    /// <summary>sync's rate at the most workers at most 0.8 of its rate at the fewest (half the published fall), interval and all.</summary>
    internal static Judgement SyncFalls(ClaimEvidence evidence)
    {
        var (fewest, most, rate) = Trend(evidence, "sync");
        return rate.Below(0.8) ? Judgement.Holds(Describe(evidence, "sync", fewest, most, rate), "more blocking readers at once read the device no faster")
            : rate.Below(0.95) ? Judgement.DoesNotHold(Describe(evidence, "sync", fewest, most, rate), "sync fell, but by less than half the published 40%")
            : Judgement.DoesNotHold(Describe(evidence, "sync", fewest, most, rate), "sync is not shown to fall");
    }

    // The rate at the most workers over the rate at the fewest: the inverse of the walls' ratio. A run whose
    // files would not go cold tests something else, so it cannot judge.
    private static (int Fewest, int Most, RatioEstimate Rate) Trend(ClaimEvidence evidence, string kind)
    {
        if (evidence.Result.Parameters.TryGetValue("cache", out var cache) && cache != "cold")
        {
            throw new MissingEvidenceException("the cache was warm, and the claims are about a cold one");
        }

        var workers = evidence.Result.Variants
            .Where(v => v.Name.StartsWith(kind + "@", StringComparison.Ordinal) && v.Summary is not null && v.WholeNumber("workers") is not null)
            .Select(v => v.WholeNumber("workers")!.Value)
            .Order()
            .ToList();
        if (workers.Count < 2 || workers[0] == workers[^1])
        {
            throw new MissingEvidenceException($"{kind} ran at fewer than two worker counts");
        }

        var notCold = evidence.Result.Variants.SelectMany(v => v.Trials).Count(t => t.Metrics.TryGetValue(HashScenario.NotCold.Id, out var n) && n > 0);
        if (notCold > 0)
        {
            throw new MissingEvidenceException($"{notCold} trials could not make the cache cold, so this is no test of the claims");
        }

        var walls = evidence.Ratio($"{kind}@{workers[0]}", $"{kind}@{workers[^1]}");
        return (workers[0], workers[^1], walls);
    }

    private static string Describe(ClaimEvidence evidence, string kind, int fewest, int most, RatioEstimate rate)
    {
        var files = evidence.Parameter("files");
        string Rate(int workers) => (files / (evidence.Wall($"{kind}@{workers}").Median / 1000)).ToString("0.0", CultureInfo.InvariantCulture);
        return $"{Rate(fewest)} to {Rate(most)} files/s from {fewest} to {most} workers ({Math.Round(rate.Value - 1, 2).ToString("+0%;-0%;0%", CultureInfo.InvariantCulture)}, rate ratio {rate.Times})";
    }
}
