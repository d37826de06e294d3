using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Results;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Running;

/// <summary>
/// The parent-child trial protocol's JSON, with the contract made at compile time: a trial's process reads its request
/// before its region, and reflection would cost it there about 90 ms (its serializer's code emitted and compiled on
/// first use; measured on 2 cores, a third of a trial's start-up). The same rules as <see cref="LabJson"/>.
/// </summary>
internal static class TrialJson
{
    // What the hand-written reader's complaints call what it reads.
    private const string Request = "a trial request";

    /// <summary><see cref="LabJson.Compact"/>, with the request's and result's contracts generated.</summary>
    public static JsonSerializerOptions Options { get; } = new(LabJson.Compact) { TypeInfoResolver = TrialJsonContext.Default };

    /// <summary>A request, written for a trial's command line.</summary>
    public static string Write(TrialRequest request)
        => JsonSerializer.Serialize(request, (JsonTypeInfo<TrialRequest>)Options.GetTypeInfo(typeof(TrialRequest)));

    /// <summary>
    /// A request, read from a trial's command line by hand with <see cref="Utf8JsonReader"/>; null for <c>null</c>. Even
    /// a generated contract costs a trial's process about 70 ms before its region, compiling the serializer's generic
    /// code for the request's types (157 of its methods); the reader is precompiled with the framework. Members it
    /// does not know are skipped, as the serializer skips them. Throws <see cref="JsonException"/> for what is not a request.
    /// </summary>
    public static TrialRequest? ReadRequest(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        try
        {
            return ReadRequestOrThrow(json);
        }
        catch (InvalidOperationException ex)
        {
            // A value of the wrong kind (a number where a string belongs): the reader's complaint, as the serializer's.
            throw new JsonException("a trial request is malformed: " + ex.Message, ex);
        }
    }

    private static TrialRequest? ReadRequestOrThrow(string json)
    {
        var reader = new Utf8JsonReader(System.Text.Encoding.UTF8.GetBytes(json));
        JsonMembers.Read(ref reader, Request);
        if (reader.TokenType == JsonTokenType.Null)
        {
            return null;
        }

        string? scenario = null;
        Variant? variant = null;
        IReadOnlyDictionary<string, string>? parameters = null;
        int? seed = null;
        double? sampleIntervalMs = null;
        var request = new TrialRequest { Scenario = string.Empty, Variant = null!, Parameters = null!, Seed = 0, SampleIntervalMs = 0 };
        JsonMembers.Open(ref reader, Request);
        while (JsonMembers.Next(ref reader, Request, out var name))
        {
            switch (name)
            {
                case "scenario": scenario = reader.GetString(); break;
                case "variant": variant = ReadVariant(ref reader); break;
                case "parameters": parameters = ReadStrings(ref reader); break;
                case "seed": seed = reader.GetInt32(); break;
                case "sampleIntervalMs": sampleIntervalMs = reader.GetDouble(); break;
                case "repeat": request = request with { Repeat = reader.GetInt32() }; break;
                case "prime": request = request with { Prime = reader.GetBoolean() }; break;
                case "timeoutMs": request = request with { TimeoutMs = reader.GetDouble() }; break;
                case "expectedDurationMs": request = request with { ExpectedDurationMs = reader.GetDouble() }; break;
                case "serviceEventPort": request = request with { ServiceEventPort = reader.TokenType == JsonTokenType.Null ? null
                    : reader.GetString() }; break;
                case "after": request = request with { After = reader.TokenType == JsonTokenType.Null ? null : ReadPrevious(ref reader) }; break;
                default: reader.Skip(); break;
            }
        }

        return request with
        {
            Scenario = scenario ?? throw Missing("scenario"),
            Variant = variant ?? throw Missing("variant"),
            Parameters = parameters ?? throw Missing("parameters"),
            Seed = seed ?? throw Missing("seed"),
            SampleIntervalMs = sampleIntervalMs ?? throw Missing("sampleIntervalMs"),
        };
    }

    private static Variant ReadVariant(ref Utf8JsonReader reader)
    {
        string? name = null, family = null, description = null;
        WorkForm? form = null;
        IReadOnlyDictionary<string, string>? parameters = null;
        JsonMembers.Open(ref reader, Request);
        while (JsonMembers.Next(ref reader, Request, out var member))
        {
            switch (member)
            {
                case "name": name = reader.GetString(); break;
                case "family": family = reader.GetString(); break;
                case "description": description = reader.GetString(); break;
                case "parameters": parameters = ReadStrings(ref reader); break;
                case "form":
                    form = reader.TokenType == JsonTokenType.Null ? null
                        : Enum.TryParse<WorkForm>(reader.GetString(), ignoreCase: true, out var parsed) && Enum.IsDefined(parsed) ? parsed
                        : throw new JsonException($"a trial request's variant form '{reader.GetString()}' is none of sync, tap, apm.");
                    break;
                default: reader.Skip(); break;
            }
        }

        return new Variant(name ?? throw Missing("variant.name"), family ?? throw Missing("variant.family"), form, parameters
            ?? new Dictionary<string, string>(), description ?? string.Empty);
    }

    private static ProcessInstance ReadPrevious(ref Utf8JsonReader reader)
    {
        int? processId = null;
        string? startTime = null;
        JsonMembers.Open(ref reader, Request);
        while (JsonMembers.Next(ref reader, Request, out var member))
        {
            switch (member)
            {
                case "processId": processId = reader.GetInt32(); break;
                case "startTime": startTime = reader.GetString(); break;
                default: reader.Skip(); break;
            }
        }

        return new ProcessInstance(processId ?? throw Missing("after.processId"), startTime ?? throw Missing("after.startTime"));
    }

    private static Dictionary<string, string> ReadStrings(ref Utf8JsonReader reader)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        JsonMembers.Open(ref reader, Request);
        while (JsonMembers.Next(ref reader, Request, out var name))
        {
            values[name] = reader.GetString() ?? throw new JsonException($"a trial request's parameter '{name}' is null.");
        }

        return values;
    }

    private static JsonException Missing(string member) => new($"{Request} has no {member}.");

    /// <summary>
    /// A trial's result, written to its result file by hand with <see cref="Utf8JsonWriter"/>, which is precompiled with
    /// the framework. The generated contract cost a delay trial's process 105-165 ms after its region (median 150 ms,
    /// eight trials on 2 cores), compiling the serializer's generic code for the result's types, about a thousand
    /// methods: a third of each quick trial's time in all. The runner reads it back with that contract
    /// (<see cref="ReadResult"/>), and a test checks that what this writes reads back as the serializer's own would, for
    /// every member the contract has. What only some trials carry (a service's runtime account) goes through the
    /// contract.
    /// </summary>
    public static byte[] WriteUtf8(TrialResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(16 * 1024);
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Encoder = LabJson.Compact.Encoder }))
        {
            WriteResult(writer, result);
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>The members <see cref="WriteUtf8"/> writes, by the JSON names of each type's contract.</summary>
    internal static readonly IReadOnlyDictionary<Type, string[]> WrittenMembers = new Dictionary<Type, string[]>
    {
        [typeof(TrialResult)] = ["repeat", "status", "error", "isolated", "itemsPlanned", "itemsCompleted", "itemsDuplicated", "workloadDigest", "metrics", "samples", "service", "inFlight", "runtime", "regionClock", "itemTimesMs"],
        [typeof(ServiceMeasurements)] = ["name", "metrics", "samples", "runtime", "labThreads"],
        [typeof(Sample)] = ["timeMs", "threads", "poolThreads", "queueLength", "cpuMs", "residentBytes"],
        [typeof(RegionClock)] = ["start", "end", "labThreads", "caller"],
    };

    private static void WriteResult(Utf8JsonWriter writer, TrialResult result)
    {
        writer.WriteStartObject();
        writer.WriteNumber("repeat", result.Repeat);
        writer.WriteString("status", result.Status switch
        {
            TrialStatus.Ok => "ok",
            TrialStatus.Failed => "failed",
            TrialStatus.Timeout => "timeout",
            _ => throw new JsonException($"a trial status {(int)result.Status} has no name."),
        });
        WriteIfNotNull(writer, "error", result.Error);
        writer.WriteBoolean("isolated", result.Isolated);
        writer.WriteNumber("itemsPlanned", result.ItemsPlanned);
        writer.WriteNumber("itemsCompleted", result.ItemsCompleted);
        writer.WriteNumber("itemsDuplicated", result.ItemsDuplicated);
        WriteIfNotNull(writer, "workloadDigest", result.WorkloadDigest);
        WriteNumbers(writer, "metrics", result.Metrics);
        WriteSamples(writer, result.Samples);
        if (result.Service is { } service)
        {
            writer.WritePropertyName("service");
            writer.WriteStartObject();
            writer.WriteString("name", service.Name);
            WriteNumbers(writer, "metrics", service.Metrics);
            WriteSamples(writer, service.Samples);
            WriteRuntime(writer, service.Runtime);
            WriteIntegers(writer, "labThreads", service.LabThreads);
            writer.WriteEndObject();
        }

        if (result.InFlight is { } inFlight)
        {
            writer.WritePropertyName("inFlight");
            JsonSerializer.Serialize(writer, inFlight, (JsonTypeInfo<ItemsInFlight>)Options.GetTypeInfo(typeof(ItemsInFlight)));
        }

        WriteRuntime(writer, result.Runtime);
        if (result.Region is { } region)
        {
            writer.WritePropertyName("regionClock");
            writer.WriteStartObject();
            writer.WriteNumber("start", region.Start);
            if (region.End is { } end)
            {
                writer.WriteNumber("end", end);
            }

            WriteIntegers(writer, "labThreads", region.LabThreads);
            if (region.Caller is { } caller)
            {
                writer.WriteNumber("caller", caller);
            }

            writer.WriteEndObject();
        }

        if (result.ItemTimesMs is { } times)
        {
            writer.WriteStartArray("itemTimesMs");
            foreach (var time in times)
            {
                writer.WriteNumberValue(time);
            }

            writer.WriteEndArray();
        }

        writer.WriteEndObject();
    }

    private static void WriteIfNotNull(Utf8JsonWriter writer, string name, string? value)
    {
        if (value is not null)
        {
            writer.WriteString(name, value);
        }
    }

    private static void WriteNumbers(Utf8JsonWriter writer, string name, IReadOnlyDictionary<string, double>? values)
    {
        if (values is null)
        {
            return;
        }

        writer.WriteStartObject(name);
        foreach (var (key, value) in values)
        {
            writer.WriteNumber(key, value);
        }

        writer.WriteEndObject();
    }

    private static void WriteIntegers(Utf8JsonWriter writer, string name, IReadOnlyList<int>? values)
    {
        if (values is null)
        {
            return;
        }

        writer.WriteStartArray(name);
        foreach (var value in values)
        {
            writer.WriteNumberValue(value);
        }

        writer.WriteEndArray();
    }

    private static void WriteSamples(Utf8JsonWriter writer, IReadOnlyList<Sample>? samples)
    {
        if (samples is null)
        {
            return;
        }

        writer.WriteStartArray("samples");
        foreach (var sample in samples)
        {
            writer.WriteStartObject();
            writer.WriteNumber("timeMs", sample.TimeMs);
            writer.WriteNumber("threads", sample.Threads);
            writer.WriteNumber("poolThreads", sample.PoolThreads);
            writer.WriteNumber("queueLength", sample.QueueLength);
            writer.WriteNumber("cpuMs", sample.CpuMs);
            writer.WriteNumber("residentBytes", sample.ResidentBytes);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }

    // A runtime account is the runner's to add; a trial's process carries one only where a scenario made it itself.
    private static void WriteRuntime(Utf8JsonWriter writer, RuntimeAccount? runtime)
    {
        if (runtime is not null)
        {
            writer.WritePropertyName("runtime");
            JsonSerializer.Serialize(writer, runtime, (JsonTypeInfo<RuntimeAccount>)Options.GetTypeInfo(typeof(RuntimeAccount)));
        }
    }

    /// <summary>A trial's result, read from its result file; null for <c>null</c>.</summary>
    public static TrialResult? ReadResult(string json)
        => JsonSerializer.Deserialize(json, (JsonTypeInfo<TrialResult>)Options.GetTypeInfo(typeof(TrialResult)));
}

/// <summary>The contracts of <see cref="TrialRequest"/> and <see cref="TrialResult"/>, generated.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web, GenerationMode = JsonSourceGenerationMode.Metadata)]
[JsonSerializable(typeof(TrialRequest))]
[JsonSerializable(typeof(TrialResult))]
internal sealed partial class TrialJsonContext : JsonSerializerContext;
