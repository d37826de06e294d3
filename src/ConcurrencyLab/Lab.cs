using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Scenarios.Custom;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab;

/// <summary>
/// The shortest way to put a workload of your own through every strategy. Call it first thing in your
/// program's <c>Main</c>, passing the program's arguments: the lab starts your program again for each
/// trial, and this call is also where such a child process runs its trial.
/// </summary>
/// <example>
/// <code>
/// return await Lab.RunAsync(args, "resize", seed => new ResizeWorkload(seed), new RunOptions { Quick = true });
/// </code>
/// </example>
public static class Lab
{
    /// <summary>Runs <paramref name="factory"/>'s workload through every strategy and writes the reports.</summary>
    /// <returns>The process exit code: 0 when every trial succeeded, 1 when some failed, 2 for a bad plan.</returns>
    public static Task<int> RunAsync(string[] args, string name, Func<int, Workload> factory, RunOptions? options = null, TextWriter? output = null) =>
        RunAsync(args, new WorkloadScenario(name, factory), options, output);

    /// <summary>Runs <paramref name="scenario"/> and writes the reports to <c>conclab-results/&lt;timestamp&gt;/</c>.</summary>
    public static async Task<int> RunAsync(string[] args, Scenario scenario, RunOptions? options = null, TextWriter? output = null)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(scenario);
        if (await ChildEntry.TryRunAsync(args, [scenario]).ConfigureAwait(false) is { } childExitCode)
        {
            return childExitCode;
        }

        output ??= Console.Out;
        var run = await MeasureAsync(scenario, options ?? new RunOptions(), output).ConfigureAwait(false);
        if (run is null)
        {
            return 2;
        }

        var folder = Exporters.DefaultFolder();
        var failures = Exporters.ExportAll(run, folder, Exporters.Default, out _);
        MarkdownExporter.GitHub.Export(run, output);
        foreach (var failure in failures)
        {
            await output.WriteLineAsync($"could not write {failure}").ConfigureAwait(false);
        }

        await output.WriteLineAsync($"Results written to {folder}").ConfigureAwait(false);
        return run.Scenarios.SelectMany(s => s.Variants).All(v => v.Status == TrialStatus.Ok) ? 0 : 1;
    }

    /// <summary>
    /// Plans and runs <paramref name="scenario"/> with each trial in a fresh copy of this program, and returns
    /// the results, or null after writing the plan's problems to <paramref name="output"/>.
    /// </summary>
    public static async Task<RunResult?> MeasureAsync(Scenario scenario, RunOptions options, TextWriter output, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(output);
        if (!RunPlanner.TryCreate(options with { Scenarios = [] }, [scenario], out var plan, out var errors))
        {
            foreach (var error in errors)
            {
                await output.WriteLineAsync(error).ConfigureAwait(false);
            }

            return null;
        }

        var executor = TrialExecutors.For(options);
        return Summarizer.Summarise(await new Runner(executor).RunAsync(plan, cancellationToken).ConfigureAwait(false));
    }
}
