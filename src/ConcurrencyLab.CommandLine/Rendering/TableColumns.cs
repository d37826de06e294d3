using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// Which columns a scenario's console table shows. By default the ones that decide: the variant, its median and
/// interval, efficiency, threads, pool threads, CPU, at most two of the scenario's own measures, trials ok, and the
/// pool's starvation adds, the items in flight where the answer cites them, and the flags where there are any; and when
/// the terminal is too narrow for them, the least important go first, so that no name breaks. <c>--columns</c> names
/// others, or <c>all</c>. The results files always keep every column.
/// </summary>
internal sealed class TableColumns
{
    private const string AllWord = "all";

    // Ids of the default columns of every scenario, in the order a table shows them.
    private static readonly string[] Shown = ["variant", "medianWallMs", "ci95Ms",
        "efficiency", StandardMetrics.PeakThreads.Id, StandardMetrics.PeakPoolThreads.Id, StandardMetrics.Cpu.Id];

    private readonly IReadOnlyList<string>? _named;

    private TableColumns(IReadOnlyList<string>? named) => _named = named;

    /// <summary>The columns that decide, as many as fit.</summary>
    public static TableColumns Default { get; } = new(null);

    /// <summary>Every column the results have.</summary>
    public static TableColumns All { get; } = new([AllWord]);

    /// <summary>
    /// Reads <c>--columns</c>: <c>all</c>, or column ids separated by commas (any case), each a column of the
    /// tables, a metric of the lab or one of <paramref name="metrics"/> (the scenarios'); otherwise one line saying which are known.
    /// </summary>
    public static bool TryParse(string text, IEnumerable<Metric> metrics, out TableColumns columns, out string problem)
    {
        ArgumentNullException.ThrowIfNull(text);
        columns = Default;
        problem = string.Empty;
        var names = text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (names.Length == 0)
        {
            problem = $"--columns takes all, or column ids separated by commas, not '{text}'.";
            return false;
        }

        if (names.Any(n => string.Equals(n, AllWord, StringComparison.OrdinalIgnoreCase)))
        {
            columns = All;
            return true;
        }

        var known = KnownIds(metrics);
        var unknown = names.Where(n => !known.Contains(n, StringComparer.OrdinalIgnoreCase)).ToList();
        if (unknown.Count > 0)
        {
            problem = $"--columns: no column {string.Join(", ", unknown.Select(u => $"'{u}'"))}; columns are all, or {string.Join(", ", known)}.";
            return false;
        }

        columns = new TableColumns([.. names.Select(n => known.First(k => string.Equals(k, n, StringComparison.OrdinalIgnoreCase)))]);
        return true;
    }

    /// <summary>The columns to show for <paramref name="scenario"/> in <paramref name="width"/> characters, and those left out to fit.</summary>
    public (IReadOnlyList<ResultColumn> Columns, IReadOnlyList<ResultColumn> LeftOut) For(ScenarioResult scenario, int width)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var every = ResultColumn.For(scenario);
        if (_named is [AllWord])
        {
            return (every, []);
        }

        if (_named is { } named)
        {
            // The variant always leads: a row must say what it is.
            return ([.. every.Where(c => c.Id == "variant"),
                .. named.Select(n => every.FirstOrDefault(c => c.Id == n)).OfType<ResultColumn>().Where(c => c.Id != "variant")], []);
        }

        // The pool's starvation adds say why threads grew: shown when the runtime made any, as flags are.
        var checks = OwnChecks(scenario).Select(m => m.Id).ToList();
        var starved = scenario.Variants.Any(v => v.Summary?.Median(StandardMetrics.StarvationInjections) > 0);
        var wanted = every
            .Where(c => Shown.Contains(c.Id) || checks.Contains(c.Id) || c.Id == "trials"
                || (c.Id == StandardMetrics.StarvationInjections.Id && starved)
                || (c.Id == StandardMetrics.InFlightMean.Id && InFlightDecides(scenario))
                || (c.Id == "flags" && scenario.Variants.Any(v => c.Format(scenario, v).Length > 0)))
            .ToList();

        // Left out first when the table is too wide: what decides least. The variant, its median and its flags stay.
        string[] leaveOut = [StandardMetrics.Cpu.Id, "ci95Ms",
            .. checks.AsEnumerable()
                .Reverse(), StandardMetrics.StarvationInjections.Id, StandardMetrics.PeakPoolThreads.Id, StandardMetrics.InFlightMean.Id,
                    "trials", StandardMetrics.PeakThreads.Id, "efficiency"];
        var left = new List<ResultColumn>();
        foreach (var id in leaveOut)
        {
            if (Width(scenario, wanted) <= width)
            {
                break;
            }

            if (wanted.FirstOrDefault(c => c.Id == id) is { } column)
            {
                wanted.Remove(column);
                left.Add(column);
            }
        }

        return (wanted, left);
    }

    /// <summary>The text a cell shows: a variant that failed says so beside its name.</summary>
    public static string Cell(ResultColumn column, ScenarioResult scenario, VariantResult variant)
    {
        ArgumentNullException.ThrowIfNull(column);
        ArgumentNullException.ThrowIfNull(variant);
        return column.Id == "variant" && variant.Status != TrialStatus.Ok
            ? $"{variant.Name} ({variant.Status.ToText()})" : column.Format(scenario, variant);
    }

    /// <summary>
    /// How wide a rounded table of these columns is: each column as wide as its header or its widest cell, with a
    /// space either side and a border after it, and the first border.
    /// </summary>
    public static int Width(ScenarioResult scenario, IEnumerable<ResultColumn> columns)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(columns);
        return 1
            + columns.Sum(c => 3
                + Math.Max(c.HeaderWithUnit.Length, scenario.Variants.Select(v => Cell(c, scenario, v).Length).DefaultIfEmpty(0).Max()));
    }

    // Whether the answer cites items in flight (a reason that counts them, or a limit inside the items): then the
    // console shows the column its figures come from.
    private static bool InFlightDecides(ScenarioResult scenario) =>
        (scenario.Recommendations
            ?? []).Any(r => r.Limit is not null
                || r.Avoid.Any(a => a is CouldNotStart or HeldToItsDegree { InFlight: not null } or BlocksPoolThreads { InFlight: not null }));

    // The scenario's own measures a table shows by default: the first two it shows everywhere, flags aside (the
    // flags column names those that are not 0).
    private static IEnumerable<Metric> OwnChecks(ScenarioResult scenario) => scenario.Metrics
        .Where(m => m.Visibility == MetricVisibility.Everywhere && !m.FlagsWhenNotZero && !StandardMetrics.All.Any(s => s.Id == m.Id))
        .Take(2);

    private static List<string> KnownIds(IEnumerable<Metric> metrics) =>
    [
        "variant", "status", "medianWallMs", "ci95Ms", "efficiency", "ratioToBaseline", "spread",
        .. StandardMetrics.All.Select(m => m.Id),
        .. metrics.Select(m => m.Id).Where(id => !StandardMetrics.All.Any(s => s.Id == id)).Distinct(),
        "trials", "flags",
    ];
}
