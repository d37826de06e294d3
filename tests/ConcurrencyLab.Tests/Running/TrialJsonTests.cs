using System.Text.Json;
using CsCheck;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Running;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Serialization;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Tests.Running;

public sealed class TrialJsonTests
{
    private static readonly Gen<string> Text = Gen.String[Gen.Char, 0, 12];
    private static readonly Gen<Dictionary<string, string>> Strings = Gen.Dictionary(Gen.String[Gen.Char, 1, 8], Text)[0, 5];

    private static readonly Gen<TrialRequest> Requests =
        from scenario in Text
        from name in Text
        from family in Text
        from form in Gen.Int[-1, 2]
        from variantParameters in Strings
        from description in Text
        from parameters in Strings
        from seed in Gen.Int
        from interval in Gen.Double[0, 60_000]
        from repeat in Gen.Int[0, 1000]
        from prime in Gen.Bool
        from timeout in Gen.Double[0, 1e9]
        from expected in Gen.Double[0, 1e9]
        from port in Gen.Bool
        from after in Gen.Int[-1, 4_000_000]
        select new TrialRequest
        {
            Scenario = scenario,
            Variant = new Variant(name, family, form < 0 ? null : (WorkForm)form, variantParameters, description),
            Parameters = parameters,
            Seed = seed,
            SampleIntervalMs = interval,
            Repeat = repeat,
            Prime = prime,
            TimeoutMs = timeout,
            ExpectedDurationMs = expected,
            ServiceEventPort = port ? "/tmp/p" + description : null,
            After = after < 0 ? null : new ProcessInstance(after, description),
        };

    [Fact]
    public void ARequest_ReadByHand_IsTheRequestWritten_ByTheProtocolsWriterAndByTheLabsOwnOptions()
    {
        Requests.Sample(request =>
        {
            foreach (var json in new[] { TrialJson.Write(request), JsonSerializer.Serialize(request, LabJson.Options) })
            {
                var read = TrialJson.ReadRequest(json)!;
                Assert.Equal(request with { Parameters = read.Parameters, Variant = read.Variant }, read);
                Assert.Equal(request.Variant, read.Variant);
                Assert.Equal(request.Parameters.OrderBy(p => p.Key, StringComparer.Ordinal), read.Parameters.OrderBy(p => p.Key, StringComparer.Ordinal));
            }
        }, iter: 300);
    }

    [Fact]
    public void MembersItDoesNotKnow_AreSkipped_AndAMissingOrMistypedOne_IsAJsonException()
    {
        var known = """{"scenario":"delay","variant":{"name":"whenall","family":"whenall","form":"tap","parameters":{},"description":"d","later":[1,{"x":2}]},"parameters":{"items":"40"},"seed":42,"sampleIntervalMs":10,"added":{"a":[true]}}""";
        var read = TrialJson.ReadRequest(known)!;
        Assert.Equal(("delay", "whenall", WorkForm.Tap, "40", 42, true), (read.Scenario, read.Variant.Name, read.Variant.Form, read.Parameters["items"], read.Seed, read.Prime));
        Assert.Null(TrialJson.ReadRequest("null"));

        Assert.ThrowsAny<JsonException>(() => TrialJson.ReadRequest(known.Replace("\"seed\":42,", string.Empty, StringComparison.Ordinal)));
        Assert.ThrowsAny<JsonException>(() => TrialJson.ReadRequest(known.Replace("\"40\"", "40", StringComparison.Ordinal)));
        Assert.ThrowsAny<JsonException>(() => TrialJson.ReadRequest(known.Replace("\"tap\"", "\"fast\"", StringComparison.Ordinal)));
        Assert.ThrowsAny<JsonException>(() => TrialJson.ReadRequest(known[..40]));
        Assert.ThrowsAny<JsonException>(() => TrialJson.ReadRequest("[1]"));
    }

    // Text without lone surrogates, which no JSON writer takes; quotes, controls and non-ASCII included.
    private static readonly Gen<string> Name = Gen.String[Gen.Char['\u0000', '\uD7FF'], 1, 10];
    private static readonly Gen<double> Number = Gen.Double[-1e12, 1e12];
    private static readonly Gen<Dictionary<string, double>> Numbers = Gen.Dictionary(Name, Number)[0, 6];
    private static readonly Gen<List<Sample>> Samples =
        (from time in Number from threads in Gen.Int from pool in Gen.Int from queue in Gen.Long from cpu in Number
         select new Sample(time, threads, pool, queue, cpu)).List[0, 4];

    private static readonly Gen<List<int>?> Ids = from some in Gen.Bool from ids in Gen.Int.List[0, 4] select some ? ids : null;

    private static readonly Gen<TrialResult> Results =
        from repeat in Gen.Int[0, 100]
        from status in Gen.Enum<TrialStatus>()
        from hasError in Gen.Bool
        from errorText in Name
        from isolated in Gen.Bool
        from items in Gen.Int[0, 100_000]
        from hasDigest in Gen.Bool
        from digestText in Name
        from metrics in Numbers
        from samples in Samples
        from service in Gen.Int[0, 2]
        from serviceMetrics in Numbers
        from serviceThreads in Ids
        from runtime in Gen.Bool
        from region in Gen.Int[0, 2]
        from start in Gen.Long
        from end in Gen.Long
        from labThreads in Ids
        from caller in Gen.Int
        from hasTimes in Gen.Bool
        from times in Number.List[0, 5]
        from inFlight in Gen.Int[0, 2]
        from peak in Gen.Int[0, 1000]
        let error = hasError ? errorText : null
        let digest = hasDigest ? digestText : null
        select new TrialResult
        {
            Repeat = repeat,
            Status = status,
            Error = error,
            Isolated = isolated,
            ItemsPlanned = items,
            ItemsCompleted = items / 2,
            ItemsDuplicated = items % 3,
            WorkloadDigest = digest,
            Metrics = metrics,
            Samples = samples,
            Service = service == 0 ? null : new ServiceMeasurements
            {
                Name = digest ?? "product",
                Metrics = serviceMetrics,
                Samples = samples,
                Runtime = service == 2 ? new RuntimeAccount { Events = RuntimeEvents.Full, Complete = isolated, Note = error } : null,
                LabThreads = serviceThreads,
            },
            Runtime = runtime ? new RuntimeAccount { Events = RuntimeEvents.Pool, PoolTargetAtStart = repeat } : null,
            Region = region == 0 ? null : new RegionClock(start, region == 2 ? end : null, labThreads, region == 2 ? caller : null),
            ItemTimesMs = hasTimes ? times : null,
            InFlight = inFlight == 0 ? null : new ItemsInFlight
            {
                Mean = peak / 3.0,
                Peak = peak,
                Allowed = inFlight == 2 ? peak + 1 : null,
                AtAllowedShare = inFlight == 2 ? 0.25 : null,
                BinMs = 1.5,
                Timeline = times,
            },
        };

    [Fact]
    public void AResultWrittenByHand_ReadsBackAsTheSerializersOwn()
    {
        Results.Sample(result =>
        {
            var bySerializer = JsonSerializer.Serialize(result, TrialJson.Options);
            var byHand = System.Text.Encoding.UTF8.GetString(TrialJson.WriteUtf8(result));

            // Read with the contract the runner reads with, then written by the serializer: the same text both ways.
            Assert.Equal(bySerializer, JsonSerializer.Serialize(TrialJson.ReadResult(byHand), TrialJson.Options));
        }, iter: 300);
    }

    [Fact]
    public void TheWriterByHand_KnowsEveryMemberOfTheContract()
    {
        // A member added to a result's type and not to the writer would be lost on the way from every trial's process.
        foreach (var (type, written) in TrialJson.WrittenMembers)
        {
            // What the contract writes: an ignored member ([JsonIgnore]) is listed with no getter.
            var contract = TrialJson.Options.GetTypeInfo(type).Properties.Where(p => p.Get is not null).Select(p => p.Name).Order(StringComparer.Ordinal);
            Assert.Equal(contract, written.Order(StringComparer.Ordinal));
        }
    }
}
