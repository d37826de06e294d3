using System.Globalization;
using System.Text.Json;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;

// conclab-build-probe <scenario> <variant> <seed> [name=value ...]: one trial, unprimed, in this process; its result
// as one line of JSON on standard output (status, error, metrics). Exit code 0 when the trial ran, 2 on bad input.
if (args.Length < 3)
{
    Console.Error.WriteLine("usage: conclab-build-probe <scenario> <variant> <seed> [name=value ...]");
    return 2;
}

var scenario = ScenarioCatalog.BuiltIn.FirstOrDefault(s => s.Name == args[0]);
if (scenario is null || !int.TryParse(args[2], NumberStyles.Integer, CultureInfo.InvariantCulture, out var seed))
{
    Console.Error.WriteLine($"no scenario {args[0]}, or a seed that is not a number: {args[2]}");
    return 2;
}

var given = args.Skip(3).Select(a => a.Split('=', 2)).Where(p => p.Length == 2).ToDictionary(p => p[0], p => p[1], StringComparer.Ordinal);
var parameters = ParameterValues.Create(scenario.Parameters, given, quick: false, out var errors);
if (errors.Count > 0)
{
    Console.Error.WriteLine(string.Join("; ", errors));
    return 2;
}

if (!scenario.Variants(parameters).TryParse(args[1], out var variant, out var problem))
{
    Console.Error.WriteLine(problem);
    return 2;
}

var request = new TrialRequest
{
    Scenario = scenario.Name,
    Variant = variant,
    Parameters = parameters.Values,
    Seed = seed,
    Repeat = 0,
    SampleIntervalMs = 10,
    ExpectedDurationMs = scenario.ExpectedTrialDuration(parameters).TotalMilliseconds,
    Prime = false,
};
var result = await TrialHost.RunAsync(request, scenario, isolated: true).ConfigureAwait(false);

using var output = Console.OpenStandardOutput();
using (var json = new Utf8JsonWriter(output))
{
    json.WriteStartObject();
    json.WriteString("status", result.Status.ToString());
    json.WriteNumber("itemsPlanned", result.ItemsPlanned);
    json.WriteNumber("itemsCompleted", result.ItemsCompleted);
    if (result.Error is { } error)
    {
        json.WriteString("error", error);
    }

    json.WriteStartObject("metrics");
    foreach (var (id, value) in result.Metrics)
    {
        if (double.IsFinite(value))
        {
            json.WriteNumber(id, value);
        }
    }

    json.WriteEndObject();
    json.WriteEndObject();
}

output.WriteByte((byte)'\n');
return 0;
