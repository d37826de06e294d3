using System.Text.Json;
using System.Text.RegularExpressions;

namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// The report a real run writes, opened in a real browser (headless Chromium): a screenshot is taken, and the
/// page's charts are measured as laid out. CI installs Chromium (.ci/run) and sets CONCLAB_REQUIRE_BROWSER,
/// so there a missing browser fails the test; elsewhere the test says it could not run.
/// </summary>
public sealed partial class ReportInBrowserTests
{
    [SkippableFact]
    public async Task TheReport_RendersItsChartsAndTables_InHeadlessChromium()
    {
        var browser = FindBrowser();
        if (browser is null)
        {
            Assert.True(Environment.GetEnvironmentVariable("CONCLAB_REQUIRE_BROWSER") != "1", "no chromium on PATH, and CI requires one (.ci/run installs it)");
            throw new SkipException("no chromium on PATH (.ci/run installs it)");
        }

        using var folder = new TempFolder();
        var run = await ProgramRunner.ConclabAsync(folder.Path, "run", "delay", "--quick", "--variants", "whenall,threads,parallel-for@4", "--repeat", "2", "--out", "out");
        Assert.True(run.ExitCode == 0, run.ToString());
        var report = Path.Combine(folder.Path, "out", "report.html");
        Assert.True(File.Exists(report), "the run wrote no report.html");

        var screenshot = Path.Combine(folder.Path, "shot.png");
        await RunBrowserAsync(browser, folder.Path, "--screenshot=" + screenshot, "--window-size=1200,1600", new Uri(report).AbsoluteUri);
        var png = await File.ReadAllBytesAsync(screenshot);
        Assert.True(png.Length > 20_000, $"the screenshot is {png.Length} bytes: a blank page is smaller");
        Assert.Equal([0x89, (byte)'P', (byte)'N', (byte)'G'], png[..4]);
        Assert.Equal(1200, BigEndian(png, 16));
        Assert.Equal(1600, BigEndian(png, 20));

        // A copy of the page with a script that measures what the browser laid out (the report itself has none).
        var probe = Path.Combine(folder.Path, "out", "probe.html");
        var html = await File.ReadAllTextAsync(report);
        await File.WriteAllTextAsync(probe, html.Replace("</body>", Measure + "</body>", StringComparison.Ordinal));
        var dom = await RunBrowserAsync(browser, folder.Path, "--dump-dom", "--virtual-time-budget=3000", new Uri(probe).AbsoluteUri);
        var json = ProbeResult().Match(dom);
        Assert.True(json.Success, "the measuring script left no result: " + dom[..Math.Min(dom.Length, 500)]);
        using var measured = JsonDocument.Parse(System.Net.WebUtility.HtmlDecode(json.Groups[1].Value));
        var charts = measured.RootElement.GetProperty("charts").EnumerateArray().ToList();

        // Every chart in the page was laid out at a real size: the bars chart always, and the threads charts
        // (whose lines need a trial with two samples or more, which the page says by having them).
        Assert.Equal(Regex.Count(html, "<svg "), charts.Count);
        Assert.True(charts.Count >= 1 && html.Contains("class=\"chart wall-time\"", StringComparison.Ordinal), "no wall-time chart");
        Assert.All(charts, c => Assert.True(c.GetProperty("width").GetDouble() > 300 && c.GetProperty("height").GetDouble() > 50, c.ToString()));
        var bars = measured.RootElement.GetProperty("bars").EnumerateArray().Select(b => b.GetDouble()).ToList();
        Assert.Equal(3, bars.Count);
        Assert.All(bars, width => Assert.True(width > 1, $"a bar {width} px wide"));
        Assert.Equal(Regex.Count(html, "<polyline "), measured.RootElement.GetProperty("lines").GetInt32());
        Assert.Equal(3, measured.RootElement.GetProperty("tableRows").GetInt32());
    }

    private const string Measure = """
        <script>
        const r = e => e.getBoundingClientRect();
        const result = {
          charts: [...document.querySelectorAll('svg.chart')].map(s => ({ width: r(s).width, height: r(s).height })),
          bars: [...document.querySelectorAll('svg.chart rect.bar')].map(b => r(b).width),
          lines: [...document.querySelectorAll('svg.chart polyline')].filter(p => r(p).width > 0).length,
          tableRows: document.querySelectorAll('table.results tbody tr').length,
        };
        const pre = document.createElement('pre');
        pre.id = 'conclab-probe';
        pre.textContent = JSON.stringify(result);
        document.body.appendChild(pre);
        </script>
        """;

    private static string? FindBrowser() =>
        new[] { "chromium", "chromium-browser", "google-chrome" }
            .SelectMany(name => (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator).Select(dir => Path.Combine(dir, name)))
            .FirstOrDefault(File.Exists);

    private static async Task<string> RunBrowserAsync(string browser, string workingDirectory, params string[] args)
    {
        string[] headless = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", $"--user-data-dir={Path.Combine(workingDirectory, "chromium-profile")}"];
        var result = await ProgramRunner.RunProgramAsync(browser, workingDirectory, headless.Concat(args), TimeSpan.FromSeconds(90));
        Assert.True(result.ExitCode == 0, $"{browser} exited {result.ExitCode}: {result.Error}");
        return result.Output;
    }

    private static int BigEndian(byte[] bytes, int offset) => (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3];

    [GeneratedRegex("<pre id=\"conclab-probe\">(.*?)</pre>", RegexOptions.Singleline)]
    private static partial Regex ProbeResult();
}
