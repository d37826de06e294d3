using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>Writing a run's results, as every command that measures does: the files, a further results.json, and a line saying where.</summary>
internal static class ResultsOutput
{
    /// <summary>Why the results could not go to <c>--out</c> <paramref name="outFolder"/> or <c>--json</c>
    /// <paramref name="jsonPath"/> (each when given): found out before a run, not after it, when they would have
    /// nowhere to go.</summary>
    public static IEnumerable<string> Problems(string? outFolder, string? jsonPath)
    {
        if (outFolder is not null && OutputTargets.CheckFolder("--out", outFolder, mayHoldResults: false) is { } outProblem)
        {
            yield return outProblem;
        }

        if (jsonPath is not null && OutputTargets.CheckFile("--json", jsonPath) is { } jsonProblem)
        {
            yield return jsonProblem;
        }
    }

    /// <summary>
    /// Writes <paramref name="result"/>'s reports and charts into <paramref name="folder"/> (and results.json to
    /// <paramref name="jsonPath"/> too, when given), says on <paramref name="console"/> where, and returns what could
    /// not be written, one line each; one file's failure does not stop the others.
    /// </summary>
    public static IReadOnlyList<string> Write(
        IAnsiConsole console,
        RunResult result,
        string folder,
        string? jsonPath,
        IEnumerable<ChartFormat> chartFormats)
    {
        var failures = Exporters.ExportAll(result, folder, Exporters.Default, chartFormats, out var written);
        if (jsonPath is not null)
        {
            try
            {
                Exporters.WriteFile(result, JsonExporter.Default, jsonPath);
                written = [.. written, jsonPath];
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
            {
                failures = [.. failures, $"{jsonPath}: {ex.Message}"];
            }
        }

        // Problems on standard error, where a terminal still shows them when standard output goes to a file.
        foreach (var failure in failures)
        {
            Console.Error.WriteLine(ErrorLine.Format($"could not write {failure}"));
        }

        console.MarkupLineInterpolated($"Results: {Exporters.Describe(written)}");
        return failures;
    }
}
