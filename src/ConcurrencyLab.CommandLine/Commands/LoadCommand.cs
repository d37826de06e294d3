using System.CommandLine;
using System.Globalization;
using ConcurrencyLab.Analysis;
using ConcurrencyLab.CommandLine.Rendering;
using ConcurrencyLab.Load;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;
using Spectre.Console;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>
/// <c>conclab load</c>: a service under open-loop load, each endpoint a variant, the rates stepped or searched; the
/// same results, reports and exit codes as <c>run</c>. Every refusal comes before anything starts, exit code 2.
/// </summary>
internal static class LoadCommand
{
    public static Command Create(IAnsiConsole console, LabProgramOptions settings)
    {
        var switches = new Switches();
        var load = new Command(
            "load", "Your own service under open-loop load: each endpoint's saturation rate, latency corrected for coordinated omission, " +
                "and the service's runtime account. conclab load --start \"dotnet MyApi.dll --urls http://127.0.0.1:{port}\" --ready " +
                "http://127.0.0.1:{port}/health --endpoint async=/orders/async --endpoint sync=/orders/sync --rate auto");
        foreach (var option in switches.All)
        {
            load.Options.Add(option);
        }

        load.SetAction((parse, cancellationToken) => ExecuteAsync(console, settings, switches, parse, cancellationToken));
        return load;
    }

    private static async Task<int> ExecuteAsync(
        IAnsiConsole console,
        LabProgramOptions settings,
        Switches switches,
        ParseResult parse,
        CancellationToken cancellationToken)
    {
        var errors = new List<string>();

        // Before anything starts: a temporary folder that cannot serve would hang the run, or lose its trials.
        if (ConcurrencyLab.FileSystem.TemporaryFolder.Problem() is { } temporary)
        {
            errors.Add(temporary);
        }

        var options = Read(parse, switches, errors);
        errors.AddRange(options.Problems());
        var outFolder = parse.GetValue(switches.Out);
        var jsonPath = parse.GetValue(switches.Json);
        errors.AddRange(ResultsOutput.Problems(outFolder, jsonPath));

        if (errors.Count > 0)
        {
            await ErrorLine.WriteAsync(errors).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        var folder = outFolder ?? Exporters.DefaultFolder();
        using var taken = OutputLock.Take("--out", folder, out var held);
        if (taken is null)
        {
            await ErrorLine.WriteAsync(held!).ConfigureAwait(false);
            return ExitCode.BadInput;
        }

        console.MarkupLineInterpolated($"[grey]{(options.Connections is { } connections ? $"A closed loop of {connections} connections per endpoint" : options.Auto ? $"Searching each endpoint's saturation rate from {options.StartRate:0.##}/s" : $"Stepping each endpoint through {string.Join(", ", options.Rates.Select(r => r.ToString("0.##", CultureInfo.InvariantCulture)))}/s")}: {options.Step.TotalSeconds:0.##} s a step after {options.Warmup.TotalSeconds:0.##} s of warm-up, {options.Repeat} repeat(s).[/]");
        var crank = parse.GetValue(switches.Crank) || CrankJob.IsRunning();
        var result = await LoadRun.RunAsync(options, new ConsoleObserver(console, crank), cancellationToken).ConfigureAwait(false);
        foreach (var scenario in result.Scenarios)
        {
            console.Write(ResultTableRenderer.Render(scenario, width: console.Profile.Width));
        }

        var failures = ResultsOutput.Write(console, result, folder, jsonPath, settings.ChartFormats);

        // Last of all: crank's agent reads the block where it ends the output.
        if (crank)
        {
            await CrankJob.WriteAsync(result).ConfigureAwait(false);
        }

        if (result.Cancelled)
        {
            return ExitCode.Cancelled;
        }

        // A variant some repeat of which could not be measured, or whose service died, failed; requests that failed
        // or timed out are measurements, not failures.
        var variants = result.Scenarios.SelectMany(s => s.Load?.Variants ?? []).ToList();
        var allMeasured = variants.All(v => v.Notes.Count == 0 && v.Steps.Count > 0 && v.Steps.All(s => !s.Stopped));
        return allMeasured && failures.Count == 0 ? ExitCode.Ok : ExitCode.Failed;
    }

    // The command line as typed options; what does not parse is added to errors, with its flag.
    private static LoadOptions Read(ParseResult parse, Switches switches, List<string> errors)
    {
        var quick = parse.GetValue(switches.Quick);
        var defaults = quick ? LoadOptions.QuickDefaults : new LoadOptions();
        var endpoints = new List<Endpoint>();
        foreach (var text in parse.GetValue(switches.Endpoint) ?? [])
        {
            var equals = text.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                errors.Add($"--endpoint takes NAME=/path, not '{text}'.");
                continue;
            }

            endpoints.Add(new Endpoint(text[..equals].Trim(), text[(equals + 1)..].Trim()));
        }

        // One command for every endpoint, or several, each NAME=COMMAND: a name before the first '=' is one only where it
        // reads as a name (a command such as "dotnet x.dll --urls=http://..." has spaces and dots before its '=').
        string? command = null;
        var starts = new List<Start>();
        var startTexts = parse.GetValue(switches.Start) ?? [];
        foreach (var text in startTexts)
        {
            var equals = text.IndexOf('=', StringComparison.Ordinal);
            var name = equals > 0 ? text[..equals].Trim() : string.Empty;
            if (name.Length > 0 && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_'))
            {
                starts.Add(new Start(name, text[(equals + 1)..].Trim()));
            }
            else if (startTexts.Length == 1)
            {
                command = text;
            }
            else
            {
                errors.Add($"--start given more than once takes NAME=COMMAND each, not '{text}'.");
            }
        }

        var rates = new List<double>();
        var rateText = parse.GetValue(switches.Rate) ?? (parse.GetValue(switches.Connections) is null ? "auto" : null);
        if (rateText is not null && !string.Equals(rateText.Trim(), "auto", StringComparison.OrdinalIgnoreCase))
        {
            foreach (var item in rateText.Split(',', StringSplitOptions.TrimEntries))
            {
                if (double.TryParse(item, NumberStyles.Float, CultureInfo.InvariantCulture, out var rate))
                {
                    rates.Add(rate);
                }
                else
                {
                    errors.Add($"--rate takes rates per second separated by commas (50,100,200), or auto, not '{rateText}'.");
                    rates.Clear();
                    break;
                }
            }

            if (rates.Count == 0 && errors.Count == 0)
            {
                errors.Add("--rate names no rate.");
            }
        }

        Arrivals? arrivals = parse.GetValue(switches.Arrivals)?.Trim().ToLowerInvariant() switch
        {
            null => defaults.Arrivals,
            "constant" => Arrivals.Constant,
            "poisson" => Arrivals.Poisson,
            var other => null,
        };
        if (arrivals is null)
        {
            errors.Add($"--arrivals must be constant or poisson, not '{parse.GetValue(switches.Arrivals)}'.");
        }

        RuntimeEvents? events = parse.GetValue(switches.Events) is { } eventsText
            ? Enum.GetValues<RuntimeEvents>().Cast<RuntimeEvents?>()
                .FirstOrDefault(l => string.Equals(l.ToString(), eventsText.Trim(), StringComparison.OrdinalIgnoreCase))
            : defaults.Events;
        if (events is null)
        {
            errors.Add($"--events must be off, pool, full or stacks, not '{parse.GetValue(switches.Events)}'.");
        }

        var options = defaults with
        {
            Url = parse.GetValue(switches.Url),
            Command = command,
            Starts = starts,
            Ready = parse.GetValue(switches.Ready),
            AllowHost = parse.GetValue(switches.AllowHost),
            Pid = (int?)Number(parse, switches.Pid, errors, whole: true),
            Endpoints = endpoints,
            Rates = rates,
            StartRate = Number(parse, switches.RateStart, errors) ?? defaults.StartRate,
            Arrivals = arrivals ?? defaults.Arrivals,
            Step = Seconds(Number(parse, switches.Step, errors)) ?? defaults.Step,
            Warmup = Seconds(Number(parse, switches.Warmup, errors)) ?? defaults.Warmup,
            Timeout = Seconds(Number(parse, switches.Timeout, errors)) ?? defaults.Timeout,
            ReadyTimeout = Seconds(Number(parse, switches.ReadyTimeout, errors)) ?? defaults.ReadyTimeout,
            SloMs = Number(parse, switches.Slo, errors) ?? defaults.SloMs,
            Repeat = (int?)Number(parse, switches.Repeat, errors, whole: true) ?? defaults.Repeat,
            Connections = (int?)Number(parse, switches.Connections, errors, whole: true),
            Seed = (int?)Number(parse, switches.Seed, errors, whole: true) ?? defaults.Seed,
            Events = events ?? defaults.Events,
            Http2 = parse.GetValue(switches.Http2),
        };
        if (options.StartRate is <= 0 or > LoadOptions.MostRate || !double.IsFinite(options.StartRate))
        {
            errors.Add($"--rate-start must be above 0 and at most {LoadOptions.MostRate:0} per second.");
        }

        return options;
    }

    // Out-of-range values are left for LoadOptions.Problems to refuse with their range; a number that cannot be
    // held (1e400) becomes infinity, which it refuses too.
    private static TimeSpan? Seconds(double? seconds) =>
        seconds is not { } s ? null : double.IsFinite(s) && Math.Abs(s) < 1e6 ? TimeSpan.FromSeconds(s) : TimeSpan.MaxValue;

    private static double? Number(ParseResult parse, Option<string> option, List<string> errors, bool whole = false)
    {
        if (parse.GetValue(option) is not { } text)
        {
            return null;
        }

        if (whole && int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var count))
        {
            return count;
        }

        if (!whole && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number))
        {
            return number;
        }

        errors.Add($"{option.Name} must be a {(whole ? "whole number" : "number")}, not '{text}'.");
        return null;
    }

    // A plain line per step as it lands: a load run is long, and what it has found so far is worth seeing.
    private sealed class ConsoleObserver(IAnsiConsole console, bool crank) : ILoadObserver
    {
        // Under crank, each service the run starts is named to the agent, which measures the last one named.
        public void ServiceStarted(string variant, IReadOnlyCollection<int> processIds)
        {
            if (crank)
            {
                foreach (var id in processIds)
                {
                    CrankJob.Announce(id);
                }
            }
        }

        public void StepDone(string variant, LoadStep step, StepOutcome outcome, double? sloMs)
        {
            var latency = step.Latency is { } l ? $"p50 {NumberText.Ms(l.P50Ms)} ms, p99 {NumberText.Ms(l.P99Ms)} ms" : "no request completed";
            var slo = sloMs is { } s ? $" (SLO {NumberText.Ms(s)} ms)" : string.Empty;
            var verdict = outcome switch
            {
                StepOutcome.KeptUp => "[green]kept up[/]",
                StepOutcome.Completions => "[yellow]fell behind[/]",
                StepOutcome.Latency => "[yellow]over SLO[/]",
                StepOutcome.Generator => "[red]generator late[/]",
                StepOutcome.Died => "[red]the service exited[/]",
                StepOutcome.ClosedLoop => $"closed loop, {step.Connections} connections",
                _ => "[red]stopped[/]",
            };
            console.MarkupLine($"{Markup.Escape(variant)} at {NumberText.Count(step.OfferedPerSecond)}/s: " +
                $"{NumberText.Count(step.CompletedPerSecond)}/s done " +
                $"({(step.CompletedShare * 100).ToString("0.#", CultureInfo.InvariantCulture)}%), {latency}{slo}: {verdict}");
        }

        public void Note(string note) => console.MarkupLineInterpolated($"[yellow]{note}[/]");
    }

    /// <summary>The options of <c>load</c>.</summary>
    private sealed class Switches
    {
        public readonly Option<string> Url = new(
            "--url") { Description = "The service's base URL on loopback (http://127.0.0.1:5000/); with --start, where the started service " +
                "listens [default with --start: the --ready URL's host and port]" };
        public readonly Option<string[]> Start = new(
            "--start") { Description = "A command that starts the service, once per variant and repeat (\"dotnet MyApi.dll --urls " +
                "http://127.0.0.1:{port}\"); {port} in it, --url and --ready becomes a free loopback port. Its runtime reports to the lab, " +
                "which reads its account over each step. Given more than once, NAME=COMMAND each: every command is a variant (two builds, " +
                "two services)", AllowMultipleArgumentsPerToken = false };
        public readonly Option<string> Ready = new(
            "--ready") { Description = "With --start: a URL that answers with success once the service is ready (http://127.0.0.1:{port}/health)" };
        public readonly Option<string> ReadyTimeout = new(
            "--ready-timeout") { Description = "Seconds the started service has to answer --ready [default: 30]" };
        public readonly Option<bool> Crank = new(
            "--crank") { Description = "Report as a crank job: each variant's saturation rate between #StartJobStatistics and " +
                "#EndJobStatistics as the last output; on by itself under crank's agent (CRANK_JOB_ID set)" };
        public readonly Option<bool> Http2 = new(
            "--http2") { Description = "Send over HTTP/2 from the first byte (prior knowledge: h2c on an http:// URL whose server speaks " +
                "HTTP/2 only there, as Kestrel does on an Http2 endpoint) instead of HTTP/1.1" };
        public readonly Option<string> Pid = new(
            "--pid") { Description = "With --url: the service's process id, whose runtime the lab attaches to for each step's account, as " +
                "dotnet-trace does; it must be the process listening at --url's port" };
        public readonly Option<string> AllowHost = new(
            "--allow-host") { Description = "A host other than loopback that --url and --ready may name: only your own, on your own authority" };
        public readonly Option<string[]> Endpoint = new(
            "--endpoint") { Description = "A variant: NAME=/path, requested with GET from the service's URL; repeatable (--endpoint " +
                "sync=/orders/sync --endpoint async=/orders/async)", AllowMultipleArgumentsPerToken = false };
        public readonly Option<string> Rate = new(
            "--rate") { Description = "Rates per second to step through, increasing (50,100,200), or auto: doubling from --rate-start until " +
                "a step does not keep up, then narrowing [default: auto]" };
        public readonly Option<string> Connections = new(
            "--connections") { Description = "A closed loop instead of rates, as wrk runs: this many connections, each sending its next " +
                "request when its last was answered, one step per repeat; measures the most the service answers at that concurrency" };
        public readonly Option<string> RateStart = new(
            "--rate-start") { Description = "The first rate of --rate auto, per second [default: 16; 32 with --quick]" };
        public readonly Option<string> Arrivals = new(
            "--arrivals") { Description = "constant (evenly spaced) or poisson (seeded exponential gaps) [default: constant]" };
        public readonly Option<string> Step = new("--step") { Description = "Seconds each step sends and is measured [default: 10; 2 with --quick]" };
        public readonly Option<string> Warmup = new(
            "--warmup") { Description = "Seconds each step first sends, unmeasured, at its rate [default: 3; 0.5 with --quick]" };
        public readonly Option<string> Timeout = new(
            "--timeout") { Description = "Seconds a request may take before it counts as timed out [default: 10; 1 with --quick]" };
        public readonly Option<string> Slo = new(
            "--slo") { Description = "Milliseconds the corrected p99 must stay under for a step to keep up [default: 10x each variant's " +
                "lowest step's p50]" };
        public readonly Option<string> Repeat = new(
            "--repeat") { Description = "Times each variant's steps run, each against a fresh service when the lab starts it; the " +
                "saturation point's range is over these [default: 3; 1 with --quick]" };
        public readonly Option<string> Seed = new("--seed") { Description = "Seed of the Poisson arrivals [default: 42]" };
        public readonly Option<bool> Quick = new("--quick") { Description = "Short steps (2 s after 0.5 s of warm-up), one repeat" };
        public readonly Option<string> Events = new(
            "--events") { Description = "The started service's runtime account over each step: off; pool; full (also lock contentions and " +
                "waits); stacks (also every thread's stack: where threads blocked, by call site) [default: full]" };
        public readonly Option<string> Out = new(
            "--out") { Description = "Folder for results.json, results.md, results.csv, report.html and the charts [default: " +
                "conclab-results/<UTC timestamp>]" };
        public readonly Option<string> Json = new("--json") { Description = "Also write results.json to this file" };

        public Option[] All
            => [Url, Pid, Start, Ready, ReadyTimeout, AllowHost, Endpoint, Rate, Connections, RateStart, Arrivals, Step, Warmup, Timeout, Slo,
                Repeat, Seed, Quick, Http2, Events, Crank, Out, Json];
    }
}
