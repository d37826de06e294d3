namespace ConcurrencyLab.Scenarios;

/// <summary>
/// What every trial of a scenario's run shares and no trial process could make for itself in time, such as
/// gigabytes of files: made once in the runner's process before the scenario's first trial, and disposed
/// after its last, also when the run fails or is cancelled. Its <see cref="TrialParameters"/> are added to
/// every trial's parameters, which is how the trial processes find it.
/// </summary>
public sealed class RunFixture : IAsyncDisposable
{
    private readonly Func<ValueTask> _dispose;
    private bool _disposed;

    /// <summary>What the run's trials share: <paramref name="trialParameters"/> reach every trial,
    /// <paramref name="notes"/> go in the report, and <paramref name="dispose"/> tears it down after the scenario's
    /// last trial.</summary>
    public RunFixture(IReadOnlyDictionary<string, string> trialParameters, IReadOnlyList<string> notes, Func<ValueTask> dispose)
    {
        ArgumentNullException.ThrowIfNull(trialParameters);
        ArgumentNullException.ThrowIfNull(notes);
        ArgumentNullException.ThrowIfNull(dispose);
        TrialParameters = trialParameters;
        Notes = notes;
        _dispose = dispose;
    }

    /// <summary>Parameters every trial receives besides the user's, such as where the shared files are.</summary>
    public IReadOnlyDictionary<string, string> TrialParameters { get; }

    /// <summary>What the report should say about the set-up, such as that existing files were reused.</summary>
    public IReadOnlyList<string> Notes { get; }

    /// <summary>
    /// The scenario's ideal when the set-up measured it on this machine (such as how fast the disk reads),
    /// replacing the one planned from the parameters alone; null keeps the planned one.
    /// </summary>
    public IdealBound? Ideal { get; init; }

    /// <summary>Reference rates the set-up measured, by name (such as <c>deviceReadMibPerSec</c>), written to the
    /// results as the scenario's <c>bounds</c>.</summary>
    public IReadOnlyDictionary<string, double> Bounds { get; init; } = new Dictionary<string, double>();

    /// <summary>Tears the fixture down once; later calls do nothing.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        await _dispose().ConfigureAwait(false);
    }
}
