using System.Text.Json;
using System.Text.Json.Nodes;
using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Results;

/// <summary>
/// Reads a <c>results.json</c> back, of this schema or an older one (read as this one), refusing with a one-line
/// reason what is not one this build can read.
/// </summary>
internal static class ResultsFile
{
    // A null where the model has none (say "variants": null) is refused here, not met later as a crash; a reason to
    // avoid is read by its "kind" wherever in its object a hand or another tool put it.
    private static readonly JsonSerializerOptions Strict = new(LabJson.Options) { RespectNullableAnnotations = true,
        AllowOutOfOrderMetadataProperties = true };

    /// <summary>Reads <paramref name="path"/>; throws <see cref="ResultsFileException"/> with a one-line reason when it cannot.</summary>
    public static RunResult Read(string path) => Read(path, out _);

    /// <summary>
    /// Reads <paramref name="path"/> as <see cref="Read(string)"/> does, and says in <paramref name="writtenAs"/>
    /// the schema version the file was written in (the result is always of <see cref="RunResult.CurrentSchemaVersion"/>).
    /// </summary>
    public static RunResult Read(string path, out int writtenAs)
    {
        ArgumentNullException.ThrowIfNull(path);
        writtenAs = 0;

        // Looked at before it is opened: opening a FIFO waits for a writer for ever, and reading /dev/zero or a
        // sparse file of gigabytes runs out of memory; neither is a results file.
        if (Refuse(path) is { } refusal)
        {
            throw new ResultsFileException(refusal);
        }

        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new ResultsFileException($"cannot read {path}: {ex.Message}", ex);
        }

        bytes = WithoutControlCharacters(bytes);

        RunResult? run;
        var upgraded = false;
        var fromTwo = false;
        try
        {
            // A file of this schema is bound straight from its bytes: a tree of a file of tens of MiB costs many times
            // its size in memory. A key given twice is refused either way: which value would count is no one's guess.
            if (TopLevel(bytes) is ("conclab", RunResult.CurrentSchemaVersion))
            {
                run = JsonSerializer.Deserialize<RunResult>(bytes, Direct);
                return Checked(path, run, out writtenAs, upgraded: false, fromTwo: false);
            }

            // Otherwise read as a tree first: a file of an older schema is rewritten into this one before it is bound.
            var root = JsonNode.Parse(bytes, documentOptions: new JsonDocumentOptions { AllowDuplicateProperties = false }) as JsonObject;
            if (root is not null && root["tool"] is JsonValue tool && tool.TryGetValue<string>(out var name) && name == "conclab")
            {
                // A newer schema may have a shape this build cannot bind: say so, rather than that it is no results file.
                if (root["schemaVersion"] is JsonValue version && version.TryGetValue<int>(out var number) && number > RunResult.CurrentSchemaVersion)
                {
                    throw new ResultsFileException(Newer(path, number));
                }

                if (SchemaOne.Is(root))
                {
                    SchemaOne.Upgrade(root);
                    upgraded = true;
                }

                if (SchemaTwo.Is(root))
                {
                    SchemaTwo.Upgrade(root);
                    fromTwo = true;
                }
            }

            run = root?.Deserialize<RunResult>(Strict);
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or FormatException or ArgumentException or NotSupportedException)
        {
            // ArgumentException: a value a type refuses as it is made, such as a metric with no display name.
            // NotSupportedException: a reason to avoid with no "kind", which no type can be made from.
            throw new ResultsFileException($"{path} is not a conclab results file: {ex.Message}".ReplaceLineEndings(" "), ex);
        }

        return Checked(path, run, out writtenAs, upgraded, fromTwo);
    }

    // The checks every file passes once bound, whatever its schema, and the upgrade of a version 1 file's medians.
    private static RunResult Checked(string path, RunResult? run, out int writtenAs, bool upgraded, bool fromTwo)
    {
        writtenAs = 0;

        if (run is null || run.Tool != "conclab" || run.Scenarios is null)
        {
            throw new ResultsFileException($"{path} is not a conclab results file (no tool \"conclab\" and scenarios in it)");
        }

        if (run.SchemaVersion > RunResult.CurrentSchemaVersion)
        {
            throw new ResultsFileException(Newer(path, run.SchemaVersion));
        }

        var variants = run.Scenarios.Sum(s => s?.Variants?.Count ?? 0);
        var trials = run.Scenarios.Sum(s => s?.Variants?.Sum(v => v?.Trials?.Count ?? 0) ?? 0);
        if (variants > MaxVariants || trials > MaxTrials)
        {
            throw new ResultsFileException(
                string.Create(
                    System.Globalization.CultureInfo.InvariantCulture, $"{path} holds {variants:N0} variants and {trials:N0} trials; report " +
                        $"and compare read at most {MaxVariants:N0} variants and {MaxTrials:N0} trials, more than any run makes."));
        }

        if (NullEntry(run) is { } where)
        {
            throw new ResultsFileException($"{path} is not a conclab results file: " +
                $"{(where.Contains(" holds ", StringComparison.Ordinal) ? where : where + " holds a null where an entry belongs")}");
        }

        writtenAs = upgraded ? 1 : fromTwo ? 2 : run.SchemaVersion;
        if (upgraded)
        {
            run = SchemaOne.WithMedians(run);
        }

        return run;
    }

    private static readonly JsonSerializerOptions Direct = new(Strict) { AllowDuplicateProperties = false };

    // The file's "tool" and "schemaVersion", read from its top level without building anything; (null, 0) when absent.
    private static (string? Tool, int Version) TopLevel(byte[] bytes)
    {
        var reader = new Utf8JsonReader(bytes, new JsonReaderOptions { MaxDepth = 256 });
        string? tool = null;
        var version = 0;
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            return (null, 0);
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var name = reader.GetString();
            if (!reader.Read())
            {
                break;
            }

            if (name == "tool" && reader.TokenType == JsonTokenType.String)
            {
                tool = reader.GetString();
            }
            else if (name == "schemaVersion" && reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out var number))
            {
                version = number;
            }
            else
            {
                reader.Skip();
            }
        }

        return (tool, version);
    }

    /// <summary>
    /// The file's UTF-8 bytes with every control character inside its strings (but tab and line ends) made U+FFFD: a
    /// name in a file someone sent is printed, put in Markdown and HTML, and an escape sequence in it would drive the
    /// reader's terminal (set its title, clear its screen). A C0, DEL or C1 character written escaped (<c>\u001b</c>,
    /// after an even number of backslashes) becomes <c>\ufffd</c>, the same six bytes, in place; outside strings JSON is
    /// ASCII without DEL, so a raw DEL or C1 character can only be in one, and becomes U+FFFD itself.
    /// </summary>
    internal static byte[] WithoutControlCharacters(byte[] bytes)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        for (var i = bytes.AsSpan().IndexOf((byte)'\\'); i >= 0 && i + 5 < bytes.Length; i++)
        {
            if (bytes[i] != '\\')
            {
                continue;
            }

            if (bytes[i + 1] == 'u' && bytes[i + 2] == '0' && bytes[i + 3] == '0' && IsControlEscape(bytes[i + 4], bytes[i + 5]))
            {
                "fffd"u8.CopyTo(bytes.AsSpan(i + 2));
            }

            // Past the escape: \\ (whose second backslash starts nothing) or \uXXXX.
            i += bytes[i + 1] == 'u' ? 5 : 1;
        }

        if (bytes.AsSpan().IndexOf((byte)0x7f) < 0 && !HasRawC1(bytes))
        {
            return bytes;
        }

        var text = System.Text.Encoding.UTF8.GetString(bytes);
        return System.Text.Encoding.UTF8.GetBytes(string.Create(text.Length, text, static (span, source) =>
        {
            for (var i = 0; i < source.Length; i++)
            {
                span[i] = source[i] is >= '\u007f' and <= '\u009f' ? '\ufffd' : source[i];
            }
        }));

        // U+0080-U+009F in UTF-8: 0xC2 then 0x80-0x9F.
        static bool HasRawC1(byte[] bytes)
        {
            for (var i = bytes.AsSpan().IndexOf((byte)0xC2); i >= 0 && i + 1 < bytes.Length; i++)
            {
                if (bytes[i] == 0xC2 && bytes[i + 1] is >= 0x80 and <= 0x9F)
                {
                    return true;
                }
            }

            return false;
        }

        static bool IsControlEscape(byte high, byte low)
        {
            var h = char.ToLowerInvariant((char)high);
            var l = char.ToLowerInvariant((char)low);
            return (h is '0' && l is not ('9' or 'a' or 'd') && char.IsAsciiHexDigit(l))
                || (h is '1' && char.IsAsciiHexDigit(l))
                || (h is '7' && l is 'f')
                || (h is '8' or '9' && char.IsAsciiHexDigit(l));
        }
    }

    // Why a variant's summary cannot be one the lab wrote: a time that is negative or not finite, a low end above its high end.
    private static string? Disordered(VariantSummary summary)
    {
        return Unwritable(summary.MedianWallMs, summary.MinWallMs, summary.MaxWallMs, summary.CiLowMs, summary.CiHighMs) is { } time ? time
            : summary.CiLowMs > summary.CiHighMs
                ? string.Create(
                    System.Globalization.CultureInfo.InvariantCulture, $"an interval whose low end ({summary.CiLowMs:R}) is above its high " +
                        $"end ({summary.CiHighMs:R})")
            : summary.MinWallMs > summary.MaxWallMs
                ? string.Create(
                    System.Globalization.CultureInfo.InvariantCulture, $"a fastest trial ({summary.MinWallMs:R}) slower than its slowest " +
                        $"({summary.MaxWallMs:R})")
            : summary.Efficiency is { } e && (!double.IsFinite(e) || e < 0) ? "an efficiency that is negative or not finite"
            : null;
    }

    // Why times cannot be ones the lab measured: negative, not finite, or beyond 30 years; null when they can.
    private static string? Unwritable(params ReadOnlySpan<double> times)
    {
        foreach (var t in times)
        {
            if (!double.IsFinite(t) || t < 0 || t > 1e12)
            {
                return "a time that is negative, not finite or beyond 30 years";
            }
        }

        return null;
    }

    // Why a variant's early stop cannot be one the lab wrote: the same times in order as a summary's, and a count of
    // trials no run could stop at.
    private static string? Disordered(EarlyStop stop)
    {
        return Unwritable(stop.MedianMs, stop.CiLowMs, stop.CiHighMs, stop.FastestCiHighMs ?? 0) is { } time ? time
            : stop.CiLowMs > stop.MedianMs || stop.MedianMs > stop.CiHighMs ? "a median outside its interval"
            : stop.Trials < 1 || stop.Trials > stop.Planned || stop.Planned > MaxTrials
                ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{stop.Trials} trials of {stop.Planned}, which no run stops at")
            : stop.Ratio is { } ratio && (stop.Reason != EarlyStopReason.OutOfContention || !double.IsFinite(ratio) || ratio < 1 || ratio > 100
                || (stop.FastestCiHighMs is { } high && stop.CiLowMs < ratio * high)) ? "a multiple no stop out of contention was made at"
            : null;
    }

    // The binder refuses a null property the model does not allow, but not a null inside a list ("variants": [null]);
    // every list a report walks is looked through here, so such a file is refused in one line, not met as a crash.
    private static string? NullEntry(RunResult run)
    {
        for (var s = 0; s < run.Scenarios.Count; s++)
        {
            var at = $"scenarios[{s}]";
            if (run.Scenarios[s] is not { } scenario)
            {
                return at;
            }

            if (InScenario(scenario, at) is { } found)
            {
                return found;
            }
        }

        return Null(run.Scenarios, "scenarios") ?? Null(run.Notes, "notes") ?? InSearches(run);
    }

    // A scenario's lists, its expectations, its answer, its least item times, growth and load, and each variant.
    private static string? InScenario(ScenarioResult scenario, string at)
    {
        if ((Null(scenario.Variants, $"{at}.variants")
            ?? Null(scenario.Claims, $"{at}.claims")
                ?? Null(scenario.Metrics, $"{at}.metrics")
                    ?? Null(scenario.Notes, $"{at}.notes")
                        ?? Null(scenario.Recommendations ?? [], $"{at}.recommendations")
                            ?? Null(scenario.Expectations ?? [], $"{at}.expectations")) is { } found)
        {
            return found;
        }

        // A watch's program: its command line there, its window a time.
        if (scenario.Watched is { } watched
            && (Null(watched.CommandLine, $"{at}.watched.commandLine") ?? Unwritable(watched.WindowMs)
                ?? (watched.ProcessId <= 0 ? "a process id below 1" : null)
                ?? (watched.Children is null || watched.Children.Any(c => c is null || c.CommandLine is null || c.CommandLine.Any(a => a is null))
                    ? "a child, or a child's command line, missing" : null)
                ?? (watched.Children ?? [])
                    .Select(c => Unwritable(c.WindowMs, c.StartMs) ?? (c.ProcessId <= 0 ? "a child's process id below 1" : null))
                    .FirstOrDefault(p => p is not null)
                ?? (scenario.Variants.Count != 1 + (watched.Children ?? []).Count
                    ? "a variant count other than one for the program and one for each child" : null)) is { } watchProblem)
        {
            return $"{at}.watched holds {watchProblem}";
        }

        // The machine's load is core times as the lab reads them, the others' within the machine's.
        if (scenario.MachineLoad is { } machine
            && (Unwritable(machine.WallMs, machine.CoreMs, machine.BusyMs, machine.LabCpuMs, machine.OthersMs)
                ?? (machine.OthersMs > machine.CoreMs ? "others' time beyond all the core time there was" : null)) is { } loadProblem)
        {
            return $"{at}.machineLoad holds {loadProblem}";
        }

        // An expectation is one the lab could have weighed: a metric the scenario describes, a value above 0, a tolerance a fraction.
        for (var e = 0; e < (scenario.Expectations?.Count ?? 0); e++)
        {
            if (!scenario.Expectations![e].IsWeighable(scenario))
            {
                return $"{at}.expectations[{e}] holds what no run expects: a metric the scenario does not describe, a value not above 0 or " +
                    $"not finite, or a tolerance not between 0 and 1";
            }
        }

        for (var r = 0; r < (scenario.Recommendations?.Count ?? 0); r++)
        {
            if (InRecommendation(scenario, scenario.Recommendations![r], $"{at}.recommendations[{r}]") is { } inAnswer)
            {
                return inAnswer;
            }
        }

        if (scenario.ItemTimes is { } least
            && (least.Items < 1 || least.Timings < 0 || least.Variants < 0 || Unwritable(least.MeanMs, least.LongestMs) is not null))
        {
            return $"{at}.itemTimes holds what no run writes: no items, a negative count, or a time negative or not finite";
        }

        if (scenario.Growth is { } growth && Null(growth.Lines, $"{at}.growth.lines") is { } inGrowth)
        {
            return inGrowth;
        }

        // The baseline's line is one of the growth's lines, which the report names as what each size's ratios are to.
        if (scenario.Growth is { BaselineLine: { } line } grown && grown.Lines.All(l => l.Line != line))
        {
            return $"{at}.growth.baselineLine holds a line the growth does not have";
        }

        if (scenario.Load is { } load && InLoad(load, $"{at}.load") is { } inLoad)
        {
            return inLoad;
        }

        for (var v = 0; v < scenario.Variants.Count; v++)
        {
            if (InVariant(scenario.Variants[v], $"{at}.variants[{v}]") is { } inVariant)
            {
                return inVariant;
            }
        }

        return null;
    }

    // The answer: what it avoids and leaves out, the gap's parts, a limit inside the items and the machine's share.
    private static string? InRecommendation(ScenarioResult scenario, Recommendation recommendation, string at)
    {
        if ((Null(recommendation.Avoid, $"{at}.avoid")
            ?? Null(recommendation.Gap?.Parts ?? [], $"{at}.gap.parts")
            ?? Null(recommendation.Gap?.NotJudged ?? [], $"{at}.gap.notJudged")
            ?? Null(recommendation.NotJudged ?? [], $"{at}.notJudged")) is { } avoid)
        {
            return avoid;
        }

        // A variant left out of the answer is one of the scenario's, neither the one to use nor one to avoid, and is
        // said with its figures: an expected value above 0, a measured one at least 0, a tolerance a fraction.
        for (var n = 0; n < (recommendation.NotJudged?.Count ?? 0); n++)
        {
            var unlike = recommendation.NotJudged![n];
            if (!(unlike.Expected > 0 && double.IsFinite(unlike.Expected)) || !(unlike.Measured >= 0 && double.IsFinite(unlike.Measured))
                || unlike.Tolerance is not (> 0 and < 1))
            {
                return $"{at}.notJudged[{n}] holds a figure no run writes: an expected value not above 0, a measured one below 0, one not " +
                    $"finite, or a tolerance not between 0 and 1";
            }

            if (!scenario.Variants.Any(v => v.Name == unlike.Variant) || unlike.Variant == recommendation.Use
                || recommendation.Avoid.Any(a => a.Variant == unlike.Variant))
            {
                return $"{at}.notJudged[{n}] holds a variant the scenario did not run, or one the answer also weighs";
            }
        }

        // A limit inside the items is said with its witnesses' figures: at least one witness, counts and times as
        // a run writes them.
        foreach (var (limit, name) in new[] { (recommendation.Limit, "limit"), (recommendation.LimitNotJudged, "limitNotJudged") })
        {
            if (limit is null)
            {
                continue;
            }

            var where = $"{at}.{name}";
            if (Null(limit.Witnesses, $"{where}.witnesses") is { } witness)
            {
                return witness;
            }

            if (limit.Witnesses.Count == 0 || limit.Slots < 1 || limit.Items < 1 || !(limit.AtOnce > 0) || limit.MachineIdleShare is < 0 or > 1
                || Unwritable(
                    [limit.AtOnce, limit.ItemLeastMs, limit.BestPerSecond, limit.BoundMs, limit.LockContentions, limit.Cores, .. limit.Witnesses.SelectMany(w => new[] { w.InFlight, w.PerSecond, w.Stretch })]) is not null)
            {
                return $"{where} holds what no run writes: no witness, a count below 1, or a figure negative or not finite";
            }
        }

        // The machine's share is said in a sentence: core times as the lab reads them. Others' time may dip a
        // tick or two below 0, so it is held to its size only.
        if (recommendation.Gap?.Machine is { } machine
            && (Unwritable(machine.CoreMs, machine.ProcessCpuMs, machine.IdleMs, machine.StealMs, Math.Abs(machine.OthersMs))
                ?? (machine.OthersMs < -machine.CoreMs ? "others' time below minus the core time" : null)) is { } share)
        {
            return $"{at}.gap.machine holds {share}";
        }

        return null;
    }

    // A variant's trials, its summary and stop in order, and the runtime's accounts: each trial's, its service's,
    // and the variant's added up.
    private static string? InVariant(VariantResult variant, string at)
    {
        if (Null(variant.Trials, $"{at}.trials") is { } trial)
        {
            return trial;
        }

        // A summary no run could write: what a report ranks and draws by must at least be in order.
        if (variant.Summary is { } summary && Disordered(summary) is { } disorder)
        {
            return $"{at}.summary holds {disorder}";
        }

        if (variant.Stop is { } stop && Disordered(stop) is { } stopDisorder)
        {
            return $"{at}.stop holds {stopDisorder}";
        }

        // The runtime's accounts, each trial's and its service's, and the variant's added up.
        for (var t = 0; t < variant.Trials.Count; t++)
        {
            var where = $"{at}.trials[{t}]";
            if ((InAccount(variant.Trials[t].Runtime, $"{where}.runtime")
                ?? InAccount(variant.Trials[t].Service?.Runtime, $"{where}.service.runtime")) is { } inTrial)
            {
                return inTrial;
            }

            if (InFlight(variant.Trials[t].InFlight) is { } inFlight)
            {
                return $"{where}.inFlight holds {inFlight}";
            }
        }

        if ((Null(variant.Account?.Process.Threads?.Sites ?? [], $"{at}.account.process.threads.sites")
            ?? Null(variant.Account?.Process.Threads?.Timeline ?? [], $"{at}.account.process.threads.timeline")
            ?? Null(variant.Account?.Service?.Threads?.Sites ?? [], $"{at}.account.service.threads.sites")
            ?? Null(variant.Account?.Service?.Threads?.Timeline ?? [], $"{at}.account.service.threads.timeline")) is { } inSummary)
        {
            return inSummary;
        }

        return null;
    }

    private static string? InSearches(RunResult run)
    {
        for (var s = 0; s < run.Scenarios.Count; s++)
        {
            var searches = run.Scenarios[s].DegreeSearches ?? [];
            if (Null(searches, $"scenarios[{s}].degreeSearches") is { } search)
            {
                return search;
            }

            for (var d = 0; d < searches.Count; d++)
            {
                if (Null(searches[d].Tried ?? [], $"scenarios[{s}].degreeSearches[{d}].tried") is { } tried)
                {
                    return tried;
                }
            }
        }

        return null;
    }

    // A load run's variants, their steps and notes, each step's failures and account; and every rate and figure a
    // report divides by or draws is a finite number at least 0 (a rate above 0).
    private static string? InLoad(LoadResult load, string where)
    {
        if (Null(load.Variants, $"{where}.variants") is { } variant)
        {
            return variant;
        }

        for (var v = 0; v < load.Variants.Count; v++)
        {
            var at = $"{where}.variants[{v}]";
            var each = load.Variants[v];
            // A null in saturation.perRepeat is a repeat in which no rate kept up: a finding, not a hole.
            if ((Null(each.Steps, $"{at}.steps")
                ?? Null(each.Notes, $"{at}.notes")
                    ?? (each.Saturation is { PerRepeat: null } ? $"{at}.saturation.perRepeat" : null)) is { } inVariant)
            {
                return inVariant;
            }

            for (var i = 0; i < each.Steps.Count; i++)
            {
                var step = each.Steps[i];
                var figures = new double?[] { step.StartMs, step.WallMs, step.SentPerSecond, step.CompletedPerSecond, step.GeneratorCpuMs,
                    step.ServiceCpuMs, step.Planned, step.Sent, step.Completed, step.TimedOut, step.Late };
                if (step.Failed is null || InAccount(step.Runtime, $"{at}.steps[{i}].runtime") is { } inAccount)
                {
                    return step.Failed is null ? $"{at}.steps[{i}].failed" : InAccount(step.Runtime, $"{at}.steps[{i}].runtime");
                }

                if (!(step.OfferedPerSecond is > 0 and < double.PositiveInfinity) || figures.Any(f => f is { } x && !(x >= 0 && double.IsFinite(x))))
                {
                    return $"{at}.steps[{i}] holds a rate or count that is negative or not finite";
                }
            }
        }

        return null;
    }

    // Items in flight as a run writes them: counts at least 0, a share from 0 to 1, a timeline of at most its spans.
    private static string? InFlight(Measurement.ItemsInFlight? inFlight) => inFlight switch
    {
        null => null,
        { Timeline: null } => "no timeline",
        _ when inFlight.Timeline.Count > Measurement.ItemsInFlight.Bins
            => $"{inFlight.Timeline.Count} spans, more than {Measurement.ItemsInFlight.Bins}",
        _ when !(inFlight.Mean is >= 0 and < 1e9) || inFlight.Peak < 0 || inFlight.Allowed < 0
            || inFlight.AtAllowedShare is { } share && !(share is >= 0 and <= 1)
            || !(inFlight.BinMs is >= 0 and < 1e9) || inFlight.Timeline.Any(n => !(n is >= 0 and < 1e9)) => "a count or share out of its range",
        _ => null,
    };

    private static string? InAccount(Measurement.RuntimeAccount? account, string where) =>
        account is null ? null
            : Null(account.PoolAdjustments, $"{where}.poolAdjustments") ?? Null(account.Threads?.Sites ?? [], $"{where}.threads.sites")
            ?? Null(account.Threads?.Timeline ?? [], $"{where}.threads.timeline") ?? InQueue(account.PoolQueue, $"{where}.poolQueue");

    // A queue's readings as a report draws and says them: every reading there, none below zero.
    private static string? InQueue(Measurement.PoolQueue? queue, string where) => queue switch
    {
        null => null,
        { Lengths: null } => $"{where}.lengths",
        _ when Null(queue.Lengths, $"{where}.lengths") is { } missing => missing,
        _ when queue.Lengths.Any(l => l.Length < 0 || !double.IsFinite(l.TimeMs))
            || queue.CompletedPerSecond is { } rate && !(rate is >= 0 and < 1e12)
            => $"{where} holds a reading out of its range: a length below 0, or a time or rate not finite",
        _ => null,
    };

    private static string? Null<T>(IReadOnlyList<T> list, string where)
    {
        for (var i = 0; i < list.Count; i++)
        {
            if (list[i] is null)
            {
                return $"{where}[{i}]";
            }
        }

        return null;
    }

    /// <summary>
    /// The largest results file read, in bytes. With <see cref="MaxVariants"/> and <see cref="MaxTrials"/> it bounds what
    /// <c>report</c> and <c>compare</c> take, so that the largest file accepted is reported within 10 s and 1 GiB
    /// (benchmarks/LargeResults.cs, docs/results.md); a full fanout run at N = 1000 writes tens of MiB.
    /// </summary>
    public const long MaxBytes = 64L << 20;

    /// <summary>The most variants a results file may hold, over all its scenarios: far more than any run plans.</summary>
    public const int MaxVariants = 2_000;

    /// <summary>The most trials a results file may hold, over all its variants.</summary>
    public const int MaxTrials = 10_000;

    /// <summary>Why <paramref name="path"/> is not even opened as a results file, or null when it may be read.</summary>
    private static string? Refuse(string path)
    {
        if (path.Length == 0)
        {
            return "the results file's path is empty";
        }

        FileFacts facts;
        try
        {
            facts = FileFacts.Of(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return $"cannot read {path}: {ex.Message}";
        }

        return facts.Kind switch
        {
            FileKind.Missing => $"cannot read {path}: there is no such file",
            FileKind.Directory => $"{path} is a folder; give the results.json in it",
            FileKind.Device or FileKind.Pipe or FileKind.Socket
                => $"{path} is not a conclab results file: it is a {facts.Kind.ToString().ToLowerInvariant()}, not a regular file",
            _ when facts.Size == 0 => $"{path} is not a conclab results file: it is empty, or not a regular file",
            _ when facts.Size > MaxBytes
                => $"{path} is not a conclab results file: it holds {facts.Size / (1 << 20)} MiB, more than the {MaxBytes >> 20} MiB any run writes",
            _ => null,
        };
    }

    private static string Newer(string path, int version) =>
        $"{path} has schema version {version}, newer than this conclab reads ({RunResult.CurrentSchemaVersion}); use a newer conclab";
}

/// <summary>A results file that cannot be read; its message is one line for the user.</summary>
internal sealed class ResultsFileException : Exception
{
    /// <summary>A results file that cannot be read, for the reason <paramref name="message"/> gives in one line.</summary>
    public ResultsFileException(string message)
        : base(message)
    {
    }

    /// <summary>A results file that cannot be read.</summary>
    public ResultsFileException()
    {
    }

    /// <summary>A results file that cannot be read, for the reason <paramref name="message"/> gives, found by
    /// <paramref name="innerException"/>.</summary>
    public ResultsFileException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
