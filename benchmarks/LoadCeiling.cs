#:property PublishAot=false
#:property Nullable=enable

// The load generator's own ceiling on this machine: how many requests a second conclab load sends to a trivial
// endpoint (samples/MyService's /health), in a closed loop beside wrk's, and in open loop before it falls behind its
// schedule; and over HTTP/1.1 against HTTP/2 (h2c) to one server that speaks both, conclab serve fanout-external's
// /health on its two ports (wrk speaks HTTP/1.1 only). The service and the generator share the machine, as they do in a load run on one host. Run from the
// repository's root after `dotnet build -c Release ConcurrencyLab.slnx` and `dotnet build -c Release samples/MyService`,
// with Debian's wrk installed, one run after another on a machine left alone:
//
//   dotnet run benchmarks/LoadCeiling.cs -- [--rounds 3] [--connections 64] [--seconds 5] [--out DIR]
//
// It writes each lab run's results under DIR (default benchmark-results/load-ceiling/<UTC time>) and summary.md there.
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

var options = Options(args);
var rounds = int.Parse(options.GetValueOrDefault("rounds", "3"), CultureInfo.InvariantCulture);
var connections = options.GetValueOrDefault("connections", "64");
var seconds = options.GetValueOrDefault("seconds", "5");
var output = Path.GetFullPath(options.GetValueOrDefault("out", Path.Combine("benchmark-results", "load-ceiling", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture))));
Directory.CreateDirectory(output);
var conclab = Path.GetFullPath(Path.Combine("src", "ConcurrencyLab.Cli", "bin", "Release", "net10.0", "conclab.dll"));
var service = Path.GetFullPath(Path.Combine("samples", "MyService", "bin", "Release", "net10.0", "MyService.dll"));
var wrk = File.Exists("/usr/bin/wrk") ? "/usr/bin/wrk" : File.Exists("/usr/local/bin/wrk") ? "/usr/local/bin/wrk" : null;
foreach (var (what, path) in new[] { ("conclab", conclab), ("the sample service", service) })
{
    if (!File.Exists(path))
    {
        Console.Error.WriteLine($"{what} is not built: {path}");
        return 2;
    }
}

if (wrk is null)
{
    Console.Error.WriteLine("wrk is not installed (apt-get install wrk)");
    return 2;
}

int port;
using (var listener = new TcpListener(IPAddress.Loopback, 0))
{
    listener.Start();
    port = ((IPEndPoint)listener.LocalEndpoint).Port;
}

var url = $"http://127.0.0.1:{port}/";
using var server = Process.Start(new ProcessStartInfo("dotnet") { ArgumentList = { service, "--urls", url.TrimEnd('/') }, RedirectStandardOutput = true, RedirectStandardError = true })!;
using var both = Process.Start(new ProcessStartInfo("dotnet") { ArgumentList = { conclab, "serve", "fanout-external", "--port", "0", "--http2-port", "0" }, RedirectStandardOutput = true, RedirectStandardError = true })!;
try
{
    // "listening http://127.0.0.1:P1 http2=http://127.0.0.1:P2" once it answers.
    var ready = await both.StandardOutput.ReadLineAsync() ?? throw new InvalidOperationException("conclab serve fanout-external ended before it listened: " + await both.StandardError.ReadToEndAsync());
    var parts = ready.Split(' ');
    var (http1Url, http2Url) = (parts[1] + "/", parts[2]["http2=".Length..] + "/");

    using var client = new HttpClient();
    for (var tries = 0; ; tries++)
    {
        try
        {
            if ((await client.GetAsync(url + "health")).IsSuccessStatusCode)
            {
                break;
            }
        }
        catch (HttpRequestException) when (tries < 200)
        {
            await Task.Delay(50);
        }
    }

    // In turn, so a machine that warms up or slows down shows in every client alike.
    var lab = new List<double>();
    var wrkOne = new List<double>();
    var wrkTwo = new List<double>();
    var overHttp1 = new List<double>();
    var overHttp2 = new List<double>();
    for (var round = 0; round < rounds; round++)
    {
        foreach (var (target, list, extra, name) in new[] { (http1Url, overHttp1, Array.Empty<string>(), "h1"), (http2Url, overHttp2, new[] { "--http2" }, "h2") })
        {
            var protocolFolder = Path.Combine(output, $"{name}-{round + 1}");
            Run("dotnet", [conclab, "load", "--url", target, "--endpoint", "health=/health", "--connections", connections, "--step", seconds, "--warmup", "1", "--repeat", "1", "--events", "off", "--out", protocolFolder, .. extra]);
            using var protocolJson = JsonDocument.Parse(File.ReadAllText(Path.Combine(protocolFolder, "results.json")));
            list.Add(protocolJson.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0].GetProperty("steps")[0].GetProperty("completedPerSecond").GetDouble());
        }

        var folder = Path.Combine(output, $"closed-{round + 1}");
        Run("dotnet", [conclab, "load", "--url", url, "--endpoint", "health=/health", "--connections", connections, "--step", seconds, "--warmup", "1", "--repeat", "1", "--events", "off", "--out", folder]);
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "results.json")));
        lab.Add(json.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0].GetProperty("steps")[0].GetProperty("completedPerSecond").GetDouble());
        Run(wrk, ["-t1", $"-c{connections}", "-d1s", url + "health"]);
        wrkOne.Add(Wrk(Run(wrk, ["-t1", $"-c{connections}", $"-d{seconds}s", url + "health"])));
        wrkTwo.Add(Wrk(Run(wrk, ["-t2", $"-c{connections}", $"-d{seconds}s", url + "health"])));
    }

    // Open loop: the rate searched from 2,000 a second with an SLO of 50 ms, which a trivial endpoint meets until the
    // generator or the machine gives out.
    var open = Path.Combine(output, "open");
    Run("dotnet", [conclab, "load", "--url", url, "--endpoint", "health=/health", "--rate-start", "2000", "--step", "2", "--warmup", "0.5", "--repeat", "1", "--slo", "50", "--events", "off", "--out", open]);
    using var openJson = JsonDocument.Parse(File.ReadAllText(Path.Combine(open, "results.json")));
    var variant = openJson.RootElement.GetProperty("scenarios")[0].GetProperty("load").GetProperty("variants")[0];
    var saturation = variant.GetProperty("saturation");
    var steps = variant.GetProperty("steps").EnumerateArray()
        .Select(s => $"{s.GetProperty("offeredPerSecond").GetDouble():0}/s: {s.GetProperty("completedPerSecond").GetDouble():0} done, {100.0 * s.GetProperty("late").GetInt32() / Math.Max(1, s.GetProperty("sent").GetInt32()):0.#}% late")
        .ToList();

    var summary = new StringBuilder();
    summary.AppendLine(CultureInfo.InvariantCulture, $"# The load generator's ceiling against {url}health, {Environment.ProcessorCount} cores, {DateTime.UtcNow:yyyy-MM-dd}");
    summary.AppendLine();
    summary.AppendLine("| client | requests a second, each round |");
    summary.AppendLine("| --- | --- |");
    summary.AppendLine(CultureInfo.InvariantCulture, $"| conclab load, closed loop, {connections} connections, {seconds} s | {Join(lab)} |");
    summary.AppendLine(CultureInfo.InvariantCulture, $"| wrk, 1 thread, {connections} connections, {seconds} s | {Join(wrkOne)} |");
    summary.AppendLine(CultureInfo.InvariantCulture, $"| wrk, 2 threads, {connections} connections, {seconds} s | {Join(wrkTwo)} |");
    summary.AppendLine(CultureInfo.InvariantCulture, $"| conclab load, closed loop, {connections} requests at a time, HTTP/1.1, to conclab serve fanout-external | {Join(overHttp1)} |");
    summary.AppendLine(CultureInfo.InvariantCulture, $"| conclab load, closed loop, {connections} requests at a time, HTTP/2, to conclab serve fanout-external | {Join(overHttp2)} |");
    summary.AppendLine();
    summary.AppendLine(CultureInfo.InvariantCulture, $"Open loop, searched from 2,000/s with an SLO of 50 ms: kept up to {(saturation.TryGetProperty("ratePerSecond", out var rate) ? rate.GetDouble().ToString("#,0", CultureInfo.InvariantCulture) : "none")}/s, stopped by {saturation.GetProperty("limit").GetString()}. Steps: {string.Join("; ", steps)}.");
    File.WriteAllText(Path.Combine(output, "summary.md"), summary.ToString());
    Console.WriteLine(summary);
    return 0;
}
finally
{
    if (!both.HasExited)
    {
        Process.Start("kill", ["-TERM", both.Id.ToString(CultureInfo.InvariantCulture)])!.WaitForExit();
        both.WaitForExit(5000);
    }

    if (!server.HasExited)
    {
        Process.Start("kill", ["-TERM", server.Id.ToString(CultureInfo.InvariantCulture)])!.WaitForExit();
        server.WaitForExit(5000);
    }
}

static string Run(string program, IEnumerable<string> arguments)
{
    var info = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true };
    foreach (var argument in arguments)
    {
        info.ArgumentList.Add(argument);
    }

    using var process = Process.Start(info)!;
    var text = process.StandardOutput.ReadToEndAsync();
    var errors = process.StandardError.ReadToEndAsync();
    process.WaitForExit();
    if (process.ExitCode != 0)
    {
        throw new InvalidOperationException($"{program} {string.Join(' ', info.ArgumentList)} exited {process.ExitCode}: {errors.Result}{text.Result}");
    }

    return text.Result;
}

static double Wrk(string output) =>
    double.Parse(output.Split('\n').Single(l => l.StartsWith("Requests/sec:", StringComparison.Ordinal))["Requests/sec:".Length..].Trim(), CultureInfo.InvariantCulture);

static string Join(IEnumerable<double> rates) => string.Join(", ", rates.Select(r => r.ToString("#,0", CultureInfo.InvariantCulture)));

static Dictionary<string, string> Options(string[] args)
{
    var options = new Dictionary<string, string>(StringComparer.Ordinal);
    for (var i = 0; i + 1 < args.Length; i += 2)
    {
        options[args[i].TrimStart('-')] = args[i + 1];
    }

    return options;
}
