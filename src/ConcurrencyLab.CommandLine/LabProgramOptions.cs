using ConcurrencyLab.Reporting;
using ConcurrencyLab.Running;

namespace ConcurrencyLab;

/// <summary>How <see cref="LabProgram"/> behaves beyond what its command line says.</summary>
public sealed record LabProgramOptions
{
    /// <summary>
    /// The formats charts are written in, in the output folder's <c>charts/</c>: SVG unless told otherwise. Add
    /// <c>PngChartFormat.Instance</c> from the <c>ConcurrencyLab.Charts</c> package for PNG files too.
    /// </summary>
    public IReadOnlyList<ChartFormat> ChartFormats { get; init; } = [ChartFormat.Svg];

    /// <summary>
    /// The run's settings where the command line is silent: a program may, say, default to 3 measured trials
    /// (<c>Repeat = 3</c>); <c>--repeat</c> still wins. <see cref="RunOptions.Scenarios"/>, <see cref="RunOptions.Variants"/>
    /// and <see cref="RunOptions.Parameters"/> come from the command line only.
    /// </summary>
    public RunOptions Defaults { get; init; } = new();

    /// <summary>
    /// Whether a command line with no command runs: nothing at all runs every scenario at its quick scale, and
    /// options first are those of <c>run</c> (and of the scenario, when there is one). True by default; the
    /// <c>conclab</c> tool turns it off and shows its help instead.
    /// </summary>
    public bool RunWhenNoCommand { get; init; } = true;
}
