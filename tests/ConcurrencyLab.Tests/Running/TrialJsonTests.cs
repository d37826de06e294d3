using System.Text.Json;
using CsCheck;
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
}
