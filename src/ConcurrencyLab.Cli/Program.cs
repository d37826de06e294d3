using ConcurrencyLab;
using ConcurrencyLab.Charts;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Experiments;

// The conclab tool: the published experiments through the lab's own command line, with PNG charts besides the
// SVG ones. A bare `conclab` shows its help.
return await LabProgram.RunAsync(
    args,
    ScenarioCatalog.Tool,
    new LabProgramOptions { ChartFormats = [ChartFormat.Svg, PngChartFormat.Instance], RunWhenNoCommand = false });
