using System.Globalization;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Statistics;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// The live view's rows, one per variant of the scenario under way, growing as its trials finish: trials done of
/// planned, the running median and its interval once there are two, the median of the trials' peak thread and pool
/// thread counts (as the final table has them), and
/// a mark where the pool added threads because work starved or blocked; the fastest so far in bold. Fed by the
/// runner's calls (one at a time), read by the display's refresh (on its own thread): every read takes a copy under
/// the lock.
/// </summary>
internal sealed class LiveTable
{
    /// <summary>Narrower than this, the table is left out and the progress bars stand alone.</summary>
    public const int MinimumWidth = 72;

    private readonly Lock _lock = new();
    private readonly List<Row> _rows = [];
    private string? _scenario;
    private int _planned;

    /// <summary>The scenario now running and its variants, each with <paramref name="planned"/> measured trials planned.</summary>
    public void Begin(string scenario, IEnumerable<string> variants, int planned)
    {
        ArgumentNullException.ThrowIfNull(variants);
        lock (_lock)
        {
            _scenario = scenario;
            _planned = planned;
            _rows.Clear();
            _rows.AddRange(variants.Select(v => new Row(v)));
        }
    }

    /// <summary>A measured trial of <paramref name="variant"/> ended (warmups are not rows' business).</summary>
    public void Add(string scenario, string variant, TrialResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        lock (_lock)
        {
            if (scenario != _scenario || _rows.Find(r => r.Variant == variant) is not { } row)
            {
                return;
            }

            row.Done++;
            if (result.Status == TrialStatus.Ok)
            {
                row.Walls.Add(result.WallMs);
            }
            else
            {
                row.Failed++;
            }

            if (result.Value(StandardMetrics.PeakThreads) is { } threads)
            {
                row.Threads.Add(threads);
            }

            if (result.Value(StandardMetrics.PeakPoolThreads) is { } poolThreads)
            {
                row.PoolThreads.Add(poolThreads);
            }

            if (result.Runtime is { } account)
            {
                row.Starved |= account.Count(PoolAdjustmentReason.Starvation) > 0;
                row.Blocked |= account.Count(PoolAdjustmentReason.CooperativeBlocking) > 0;
            }
        }
    }

    /// <summary><paramref name="variant"/> runs no more trials: its planned count becomes what it had.</summary>
    public void Stopped(string scenario, string variant, EarlyStop stop)
    {
        ArgumentNullException.ThrowIfNull(stop);
        lock (_lock)
        {
            if (scenario == _scenario && _rows.Find(r => r.Variant == variant) is { } row)
            {
                row.StoppedAt = stop.Trials;
            }
        }
    }

    /// <summary>
    /// The table for a console <paramref name="width"/> columns wide and <paramref name="height"/> rows high, or null
    /// where it has nothing to show or would not fit: never a table whose lines break.
    /// </summary>
    public IRenderable? Render(int width, int height)
    {
        List<(string Variant, string Trials, string Median, string Interval, string Threads, string Pool, string Mark, bool Fastest)> cells;
        lock (_lock)
        {
            if (_scenario is null || _rows.Count == 0 || width < MinimumWidth)
            {
                return null;
            }

            var fastest = _rows.Where(r => r.Walls.Count > 0 && r.Failed == 0).MinBy(r => MedianEstimate.MedianOf(r.Walls));
            cells = [.. _rows.Select(r => Cells(r, _planned, r == fastest))];
        }

        // Room for the bars below and a line of slack; what does not fit is counted, not drawn.
        var room = Math.Max(3, height - 6);
        var shown = cells.Count <= room ? cells : [.. cells.Take(room - 1)];
        var nameWidth = shown.Max(c => c.Variant.Length);
        var needed = nameWidth + shown.Max(c => c.Trials.Length) + shown.Max(c => c.Median.Length) + shown.Max(c => c.Interval.Length)
            + shown.Max(c => c.Threads.Length) + shown.Max(c => c.Pool.Length) + shown.Max(c => c.Mark.Length) + (7 * 3) + 2;
        if (needed > width)
        {
            return null;
        }

        var table = new Table().Border(TableBorder.Simple)
            .AddColumn("Variant").AddColumn(new TableColumn("Trials").RightAligned()).AddColumn(new TableColumn("Median").RightAligned())
            .AddColumn(new TableColumn("95% CI").RightAligned()).AddColumn(new TableColumn("Threads").RightAligned())
            .AddColumn(new TableColumn("Pool").RightAligned()).AddColumn("Pool added");
        foreach (var c in shown)
        {
            var style = c.Fastest ? new Style(decoration: Decoration.Bold, foreground: Color.Green) : Style.Plain;
            table.AddRow(new Text(c.Variant, style), new Text(c.Trials), new Text(c.Median, style), new Text(c.Interval), new Text(c.Threads),
                new Text(c.Pool), new Text(c.Mark, new Style(Color.Yellow)));
        }

        if (shown.Count < cells.Count)
        {
            table.Caption($"{cells.Count - shown.Count} more variants: their rows are in the tables at the end");
        }

        return table;
    }

    private static (string, string, string, string, string, string, string, bool) Cells(Row row, int planned, bool fastest)
    {
        var of = row.StoppedAt ?? planned;
        var trials = string.Create(CultureInfo.InvariantCulture, $"{row.Done}/{of}{(row.Failed > 0 ? $" ({row.Failed} failed)" : string.Empty)}");
        var median = row.Walls.Count > 0 ? NumberText.Ms(MedianEstimate.MedianOf(row.Walls)) + " ms" : string.Empty;
        var interval = row.Walls.Count >= 2 && MedianEstimate.Of(row.Walls) is var estimate
            ? $"{NumberText.Ms(estimate.Low)}-{NumberText.Ms(estimate.High)}" : string.Empty;
        var mark = (row.Starved, row.Blocked) switch
        {
            (true, true) => "starved, blocked",
            (true, false) => "starved",
            (false, true) => "blocked",
            _ => string.Empty,
        };
        return (row.Variant, trials, median, interval, Count(row.Threads), Count(row.PoolThreads), mark, fastest);
    }

    // The median of the trials' peaks, as the final table shows them.
    private static string Count(List<double> peaks) => peaks.Count > 0 ? NumberText.Count(MedianEstimate.MedianOf(peaks)) : string.Empty;

    private sealed class Row(string variant)
    {
        public string Variant { get; } = variant;

        public int Done { get; set; }

        public int Failed { get; set; }

        public List<double> Walls { get; } = [];

        public List<double> Threads { get; } = [];

        public List<double> PoolThreads { get; } = [];

        public bool Starved { get; set; }

        public bool Blocked { get; set; }

        public int? StoppedAt { get; set; }
    }
}
