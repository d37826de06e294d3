using ConcurrencyLab.Results;

namespace ConcurrencyLab.Reporting;

/// <summary>Writes a run's results in one format.</summary>
internal interface IExporter
{
    /// <summary>The file name it writes in an output folder, such as <c>results.md</c>.</summary>
    string FileName { get; }

    /// <summary>Writes <paramref name="run"/> to <paramref name="writer"/>.</summary>
    void Export(RunResult run, TextWriter writer);
}
