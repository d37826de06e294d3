using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>One line per trial, for output that is not a terminal (CI logs, files, pipes).</summary>
internal sealed class PlainProgress : IRunObserver
{
    private readonly IAnsiConsole _console;
    private readonly bool _printTables;
    private readonly TableColumns _columns;

    public PlainProgress(IAnsiConsole console, bool printTables, TableColumns? columns = null)
    {
        _console = console;
        _printTables = printTables;
        _columns = columns ?? TableColumns.Default;
    }

    public void RunStarting(RunPlan plan)
    {
        var s = plan.Settings;
        _console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"conclab: {plan.Scenarios.Count} scenario(s), {plan.Scenarios.Sum(p => p.Variants.Count)} variants, {s.Warmup} warmup + " +
                $"{(s.Adaptive ? "at most " : string.Empty)}{s.Repeat} measured trials each, {(s.Isolated ? "each in a fresh process" : "in " +
                "this process")}, {plan.TotalTrials} trials, estimated at {plan.SpokenEstimate()}."));
    }

    public void TrialStarting(TrialProgress progress)
    {
    }

    public void TrialFinished(TrialProgress progress, TrialResult result)
    {
        var detail = result.Status == TrialStatus.Ok
            ? string.Create(CultureInfo.InvariantCulture, $"{result.WallMs:0.0} ms, {result.Value(StandardMetrics.PeakThreads)} threads")
            : $"{result.Status.ToText()}: {result.Error}";
        _console.WriteLine($"[{progress.Index + 1}/{progress.Total}] {progress.Scenario} {progress.Variant} {progress.Kind}: {detail}");
    }

    public void VariantStopped(string scenario, string variant, EarlyStop stop) =>
        _console.WriteLine($"[{scenario}] {EarlyStopText.Describe(variant, stop).Text}");

    public void DegreeProbed(string scenario, string variant, int trials, double? medianMs) =>
        _console.WriteLine(
            string.Create(
                CultureInfo.InvariantCulture, $"[degree search] {scenario} {variant}: " +
                    $"{(medianMs is { } m ? $"median {m:0.0} ms of {trials} trials" : "no trial succeeded")}"));

    public void ScenarioFinished(ScenarioRecord scenario)
    {
        if (_printTables)
        {
            _console.WriteLine();
            _console.Write(ResultTableRenderer.Render(Summarizer.Summarise(scenario), columns: _columns, width: _console.Profile.Width));
        }
    }
}
