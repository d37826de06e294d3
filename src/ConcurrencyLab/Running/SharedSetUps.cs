using ConcurrencyLab.Hosting;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// The set-ups of one measurement, shared by every run it makes: the degree search's probe rounds and the run that
/// follows them prepare a scenario's phase once (one calibration, one set of files), not once a round, and every
/// trial of them reads the same one. It holds the measurement's journal, so what a set-up writes stays until the
/// last run is over; disposing it tears the set-ups down and then removes the journal.
/// </summary>
internal sealed class SharedSetUps : IAsyncDisposable
{
    private readonly RunJournal? _journal;
    private readonly List<(Scenario Scenario, ParameterValues Parameters, int Seed, Task<RunFixture?> SetUp)> _made = [];
    private readonly List<string> _notes = [];

    /// <summary>Opens the measurement's journal (none where the temporary folder cannot be written: a note says so).</summary>
    public SharedSetUps() => _journal = RunJournal.TryBegin(_notes);

    /// <summary>What opening the journal and tearing the set-ups down had to say; filled in by <see cref="DisposeAsync"/>.</summary>
    public IReadOnlyList<string> Notes => _notes;

    /// <summary>
    /// The set-up of <paramref name="scenario"/> at <paramref name="parameters"/>: prepared by the first run that asks,
    /// the same one (or the same failure) for every run after it.
    /// </summary>
    public Task<RunFixture?> GetAsync(Scenario scenario, ParameterValues parameters, int seed, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(parameters);
        lock (_made)
        {
            foreach (var made in _made)
            {
                if (ReferenceEquals(made.Scenario, scenario) && made.Seed == seed && made.Parameters.Values.SequenceEqual(parameters.Values)
                    && !made.SetUp.IsCanceled)
                {
                    return made.SetUp;
                }
            }

            var setUp = scenario.PrepareRunAsync(parameters, seed, cancellationToken);
            _made.Add((scenario, parameters, seed, setUp));
            return setUp;
        }
    }

    /// <summary>Tears down every set-up made, saying in <see cref="Notes"/> which could not be, then removes the journal.</summary>
    public async ValueTask DisposeAsync()
    {
        foreach (var (scenario, _, _, setUp) in _made)
        {
            try
            {
                if (await setUp.ConfigureAwait(false) is { } fixture)
                {
                    await fixture.DisposeAsync().ConfigureAwait(false);
                }
            }
            catch (OperationCanceledException)
            {
                // Never made: nothing to tear down.
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // A set-up that failed was said by each run that asked for it; one that cannot be torn down is said here.
                if (setUp.IsCompletedSuccessfully)
                {
                    _notes.Add($"the {scenario.Name} scenario's set-up could not be torn down: " + TrialFailure.Describe(ex));
                }
            }
        }

        _journal?.Dispose();
    }
}
