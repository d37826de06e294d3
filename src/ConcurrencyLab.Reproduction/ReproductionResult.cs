using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reproduction;

/// <summary>What <c>conclab reproduce</c> found: a verdict for every claim on every run that tests it (<c>reproduction.json</c>).</summary>
internal sealed record ReproductionResult
{
    /// <summary>
    /// The version of this file's layout. 2: each claim's row holds the claim's result as results files do (a typed
    /// <c>verdict</c> with <c>notTested</c>, its conditions and its figures as numbers) instead of a judgement.
    /// </summary>
    public int SchemaVersion { get; init; } = 2;

    /// <summary>UTC time the reproduction started, ISO 8601.</summary>
    public required string StartedAt { get; init; }

    /// <summary>How long it took, in seconds.</summary>
    public double Seconds { get; init; }

    /// <summary>Whether the posts ran at their quick scale.</summary>
    public bool Quick { get; init; }

    /// <summary>The machine the claims were re-run on.</summary>
    public required EnvironmentInfo Environment { get; init; }

    /// <summary>Every claim's verdict on every run that tests it, in the posts' order.</summary>
    public required IReadOnlyList<ClaimVerdict> Claims { get; init; }

    /// <summary>Every run made, with the folder that holds its own results.</summary>
    public required IReadOnlyList<ReproducedRun> Runs { get; init; }

    /// <summary>Whether the reproduction was cut short; what was measured before is judged.</summary>
    public bool Cancelled { get; init; }

    /// <summary>The earlier reproduction's folder whose results were judged again (<c>--from</c>); null when this one measured its own.</summary>
    public string? JudgedFrom { get; init; }
}

/// <summary>One claim judged on one run.</summary>
/// <param name="Scenario">The scenario that reproduces the post.</param>
/// <param name="Post">The post.</param>
/// <param name="Run">The run's key.</param>
/// <param name="RunKind">Isolated, or as published.</param>
/// <param name="Result">The claim, its verdict on the run, the figure here and why.</param>
internal sealed record ClaimVerdict(string Scenario, string Post, string Run, string RunKind, ClaimResult Result);

/// <summary>A run made for the claims.</summary>
/// <param name="Scenario">Its scenario.</param>
/// <param name="Key">Its key.</param>
/// <param name="Kind">Isolated, or as published.</param>
/// <param name="Configuration">Its variants, parameters and processor counts, in one line.</param>
/// <param name="Folder">Where its own results are.</param>
/// <param name="Seconds">How long it took.</param>
/// <param name="Notes">What its results say the reader should know.</param>
/// <param name="TrialsOk">Whether every trial of every variant was ok (a trial that lost messages because the pool
/// never caught up failed, and still measured what its claim is about).</param>
/// <param name="Measured">Whether the run produced results at all: false when it could not be planned or no pass gave any.</param>
internal sealed record ReproducedRun(string Scenario, string Key, string Kind, string Configuration, string Folder, double Seconds,
    IReadOnlyList<string> Notes, bool TrialsOk, bool Measured);
