using ConcurrencyLab.CommandLine.Commands;

namespace ConcurrencyLab.Tests.Cli;

/// <summary>Swaps Console.Error, so these run one at a time.</summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class CommandLineTests
{
    [Theory]
    [InlineData("run delay --items abc", "--items must be a whole number")]
    [InlineData("run delay --items 0", "--items must be")]
    [InlineData("run delay --repeat many", "--repeat must be a whole number")]
    [InlineData("run delay --repeat 5 --repeat-exactly 5", "--repeat and --repeat-exactly cannot both be given")]
    [InlineData("run delay --repeat-exactly 0", "--repeat (or --repeat-exactly) must be a whole number from 1 to 1000, not 0")]
    [InlineData("run delay --variants whenall-sync", "whenall cannot call items in the sync form")]
    [InlineData("run delay --dop 4,-1", "--dop must be a comma-separated list")]
    [InlineData("run delay --bogus", "--bogus")]
    [InlineData("run nosuch", "nosuch")]
    [InlineData("run delay --trial-timeout 0", "--trial-timeout must be a positive number of seconds")]
    [InlineData("run delay --timer fast", "--timer must be precise or task-delay")]
    [InlineData("run delay --trial-timeout 1e12", "at most 86400")]
    [InlineData("run delay --trial-timeout NaN", "--trial-timeout must be a number of seconds, not 'NaN'")]
    [InlineData("run delay --trial-timeout 1e-8", "--trial-timeout must be a positive number of seconds, at most 86400 (and at least 0.001)")]
    [InlineData("run delay --sample-interval 0.0001", "(and at least 1)")]
    [InlineData("run delay --sample-interval 1e300", "--sample-interval must be 0 (off) or a positive number of milliseconds, at most 60000")]
    [InlineData("run delay --out /proc/conclab-cannot-write-here", "--out: cannot create the folder")]
    [InlineData("run delay --out /proc", "--out: cannot create the folder")]
    [InlineData("run delay --variants plinq@1000", "plinq accepts a degree of at most 512")]
    [InlineData("run scan --targets 10.1.2.0/24 --port 80", "outside 127.0.0.0/8; add --allow-non-loopback yes")]
    [InlineData("run scan --timeout-ms 0", "--timeout-ms must be")]
    [InlineData("run delay --sample-interval -5", "--sample-interval must be 0 (off)")]
    [InlineData("run delay --min-delay 60 --max-delay 50", "--min-delay (60) must not exceed --max-delay (50).")]
    [InlineData("load --url http://10.0.0.1/ --endpoint a=/a", "--url http://10.0.0.1/ is not on loopback")]
    [InlineData("load --endpoint a=/a", "load needs a service")]
    [InlineData("load --url http://127.0.0.1:1/ --endpoint a=/a --rate 10,abc", "--rate takes rates per second")]
    [InlineData("load --url http://127.0.0.1:1/ --endpoint a=/a --slo -3", "--slo must be from 0.1")]
    [InlineData("load --url http://127.0.0.1:1/ --endpoint nope", "--endpoint takes NAME=/path")]
    [InlineData("load --url http://127.0.0.1:1/ --endpoint a=/a --arrivals burst", "--arrivals must be constant or poisson")]
    [InlineData("load --url http://127.0.0.1:1/ --endpoint a=/a --step 1e400", "--step must be from 0.5 to 600")]
    [InlineData("load --url http://127.0.0.1:1/ --endpoint a=/a --rate 100,50", "--rate's rates must increase")]
    [InlineData("load --start x --ready http://127.0.0.1:1/ --endpoint a=//evil.example/", "must start with a single '/'")]
    [InlineData("serve fanout-product --host 10.1.1.1", "--host 10.1.1.1 is not loopback")]
    [InlineData("run fanout --product-url http://10.0.0.9:5000/", "--product-url http://10.0.0.9:5000/ is not on loopback")]
    [InlineData("run fanout --product-url http://127.0.0.1:5000/product/", "--product-url must be the service's base http:// URL")]
    [InlineData("load --start a=x --start y --ready http://127.0.0.1:1/ --endpoint a=/a", "--start given more than once takes NAME=COMMAND each, not 'y'")]
    [InlineData("serve fanout-product --host example.org", "--host must be an IP address")]
    [InlineData("serve fanout-external --port 70000", "--port must be a port from 0")]
    [InlineData("serve fanout-external --port 5000 --http2-port 5000", "--port and --http2-port must differ")]
    [InlineData("serve fanout-external --delays 1,2", "--delays must list three delays")]
    [InlineData("serve fanout-product --external http://10.0.0.2:5001/ --port 0", "fanout-product: The external service must be on loopback, not 10.0.0.2")]
    [InlineData("serve fanout-product --external ftp://127.0.0.1:5001/ --port 0", "must be an http:// URL")]
    [InlineData("run delay --grow items=1,99999999999", "--grow items:")]
    [InlineData("run delay --cores 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32 --gc server,workstation --pool-min-threads 1,2,3,4", "this run would plan up to")]
    [InlineData("run poll --duration 3600 --connections 10", "24 h or more at least, so it starts only when --yes says it is meant.")]
    [InlineData("run delay --gc both", "--gc takes server or workstation, or several separated by commas, not 'both'.")]
    [InlineData("load --start 'serve --ready http://127.0.0.1:1/ --endpoint a=/a", "--start has an unclosed ' quote: 'serve")]
    public async Task BadInput_ExitsTwo_WithOneLineNamingTheProblem(string commandLine, string expected)
    {
        var (exitCode, error, output) = await InvokeAsync(commandLine.Split(' '));

        Assert.Equal(2, exitCode);
        var line = Assert.Single(error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("conclab: ", line, StringComparison.Ordinal);
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", error, StringComparison.Ordinal);
        Assert.Equal(string.Empty, output);
    }

    [Fact]
    public async Task List_ShowsScenariosVariantsAndParameterDefaults()
    {
        var (exitCode, _, output) = await InvokeAsync(["list"]);

        Assert.Equal(0, exitCode);
        Assert.Contains("delay", output, StringComparison.Ordinal);
        Assert.Contains("foreach-async@default", output, StringComparison.Ordinal);
        Assert.Contains("--max-delay", output, StringComparison.Ordinal);
        Assert.Contains("4,40", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task List_OffersStrategyNaming_OnlyForScenariosThatPairStrategiesWithForms()
    {
        var (exitCode, _, output) = await InvokeAsync(["list"]);

        Assert.Equal(0, exitCode);
        var poll = output[output.IndexOf("poll:", StringComparison.Ordinal)..];
        Assert.Contains("receive-async", poll, StringComparison.Ordinal);
        Assert.Contains("--work-ms", poll, StringComparison.Ordinal);
        Assert.DoesNotContain("strategy[@degree][-form]", poll, StringComparison.Ordinal);
        Assert.Contains("strategy[@degree][-form]", output[..output.IndexOf("poll:", StringComparison.Ordinal)], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_ANumberBelowItsRange_NamesTheRangeAsTyped()
    {
        var (exitCode, error, _) = await InvokeAsync(["run", "poll", "--hit-rate", "0"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("--hit-rate must be from 0.000001 to 1, not 0.", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_ExitsOne_WhenSomethingGotSignificantlySlower_ZeroWhenNothingDid()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-compare-test-").FullName;
        try
        {
            var fast = Write(folder, "fast.json", Comparing.RunComparisonTests.Run("100", ("whenall", [100, 101, 102, 103, 104])));
            var slow = Write(folder, "slow.json", Comparing.RunComparisonTests.Run("100", ("whenall", [150, 151, 152, 153, 154])));
            var markdown = Path.Combine(folder, "compare.md");

            var (slower, _, table) = await InvokeAsync(["compare", fast, slow, "--markdown", markdown]);
            var (same, _, _) = await InvokeAsync(["compare", fast, fast]);
            var (faster, _, _) = await InvokeAsync(["compare", slow, fast]);

            Assert.Equal(1, slower);
            Assert.Contains("slower", table, StringComparison.Ordinal);
            Assert.Contains("| delay | `whenall` | 102 | 152 | 1.49x |", await File.ReadAllTextAsync(markdown), StringComparison.Ordinal);
            Assert.Equal(0, same);
            Assert.Equal(0, faster);

            // Never the table written over a file it compares, by its name or through a link to it.
            var before = await File.ReadAllTextAsync(slow);
            File.CreateSymbolicLink(Path.Combine(folder, "alias.json"), slow);
            foreach (var target in new[] { slow, fast, Path.Combine(folder, "alias.json") })
            {
                var (refused, error, _) = await InvokeAsync(["compare", fast, slow, "--markdown", target]);
                Assert.True(refused == 2, error);
                Assert.Contains("is the results file", error, StringComparison.Ordinal);
            }

            Assert.Equal(before, await File.ReadAllTextAsync(slow));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Theory]
    [InlineData("compare /nonexistent/a.json /nonexistent/b.json", "cannot read /nonexistent/a.json")]
    [InlineData("report /nonexistent/results.json", "cannot read /nonexistent/results.json")]
    [InlineData("compare /proc/self/status /proc/self/status", "is not a conclab results file")]
    [InlineData("compare a.json b.json --alpha NaN", "--alpha must be a number above 0")]
    public async Task CompareAndReport_RefuseWhatIsNotAResultsFile_InOneLine(string commandLine, string expected)
    {
        var (exitCode, error, _) = await InvokeAsync(commandLine.Split(' '));

        Assert.Equal(2, exitCode);
        var line = Assert.Single(error.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(expected, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AResultsFileWithANullWhereNoneBelongs_IsRefusedInOneLine()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-report-test-").FullName;
        try
        {
            // A run as this build writes it: its post's claims judged (report judges them again, the same way).
            var sample = Reporting.ExporterTests.SampleRun();
            var delay = ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn.Single(s => s.Name == sample.Scenarios[0].Name);
            sample = sample with { Scenarios = [.. sample.Scenarios.Select(s => s with { Claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(delay, s) })] };
            var results = Write(folder, "results.json", sample);
            var broken = Path.Combine(folder, "broken.json");
            await File.WriteAllTextAsync(broken, (await File.ReadAllTextAsync(results)).Replace("\"variants\": [", "\"variants\": null, \"x\": [", StringComparison.Ordinal));

            var (exitCode, error, _) = await InvokeAsync(["report", broken]);

            Assert.Equal(2, exitCode);
            Assert.Contains("is not a conclab results file", Assert.Single(error.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Report_InTheResultsFilesOwnFolder_LeavesTheResultsFileAsItWas()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-report-test-").FullName;
        try
        {
            var results = Path.Combine(folder, "results.json");
            await File.WriteAllTextAsync(results, "{\"tool\": \"conclab\", \"schemaVersion\": 1, \"startedAt\": \"x\", \"environment\": {\"os\": \"o\", \"runtime\": \"r\", \"processorCount\": 2, \"gcMode\": \"g\", \"architecture\": \"a\", \"machineName\": \"m\"}, \"settings\": {}, \"scenarios\": [], \"extra\": 1}");
            var before = await File.ReadAllTextAsync(results);

            var (exitCode, _, _) = await InvokeAsync(["report", results]);

            Assert.Equal(0, exitCode);
            Assert.Equal(before, await File.ReadAllTextAsync(results));
            Assert.True(File.Exists(Path.Combine(folder, "report.html")));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Report_RemakesEveryReport_FromAResultsFile()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-report-test-").FullName;
        try
        {
            // A run as this build writes it: its post's claims judged (report judges them again, the same way).
            var sample = Reporting.ExporterTests.SampleRun();
            var delay = ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn.Single(s => s.Name == sample.Scenarios[0].Name);
            sample = sample with { Scenarios = [.. sample.Scenarios.Select(s => s with { Claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(delay, s) })] };
            var results = Write(folder, "results.json", sample);

            var (exitCode, _, output) = await InvokeAsync(["report", results, "--out", Path.Combine(folder, "again")]);

            Assert.Equal(0, exitCode);
            Assert.Contains("whenall", output, StringComparison.Ordinal);
            foreach (var name in new[] { "results.json", "results.md", "results.csv" })
            {
                Assert.True(File.Exists(Path.Combine(folder, "again", name)), name);
            }

            Assert.Equal(await File.ReadAllTextAsync(results), await File.ReadAllTextAsync(Path.Combine(folder, "again", "results.json")));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Report_OfAVersion1File_WritesThisVersion_AndChartsItsSweepsAsBefore()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-report-v1-test-").FullName;
        try
        {
            var (exitCode, error, _) = await InvokeAsync(["report", VersionOneFile("delay"), "--out", folder]);

            Assert.True(exitCode == 0, error);
            Assert.True(File.Exists(Path.Combine(folder, "charts", "delay-sweep.svg")), "no sweep chart");
            var again = ConcurrencyLab.Results.ResultsFile.Read(Path.Combine(folder, "results.json"), out var writtenAs);
            Assert.Equal(ConcurrencyLab.Results.RunResult.CurrentSchemaVersion, writtenAs);
            Assert.Equal("parallel-for", again.Scenarios[0].Variants.Single(v => v.Name == "parallel-for@40-apm").Family);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    public static TheoryData<string[], string> BadTargets() => new()
    {
        { ["run", "delay", "--quick", "--variants", "whenall", "--json", ""], "--json must not be empty." },
        { ["run", "delay", "--quick", "--variants", "whenall", "--json", "  "], "--json must not be empty." },
        { ["run", "delay", "--quick", "--variants", "whenall", "--json", "/proc"], "--json '/proc' is a folder; give a file name." },
        { ["run", "delay", "--quick", "--variants", "whenall", "--json", "."], "--json '.' is a folder; give a file name." },
        { ["run", "delay", "--quick", "--variants", "whenall", "--json", new string('j', 300) + ".json"], "--json: the file name is longer than the 255 bytes a file system allows." },
        { ["run", "delay", "--quick", "--variants", "", "--out", "x"], "--variants must name at least one variant, not ''." },
        { ["run", "fanout", "--quick", "--variants", ",,,"], "--variants must name at least one variant, not ',,,'." },
        { ["run", "delay", "--quick", "--out", ""], "--out must not be empty." },
        { ["compare", "a.json", "b.json", "--markdown", "/"], "--markdown '/' is a folder; give a file name." },
        { ["run", "delay", "--quick", "--gc", "workstation", "--runtime-env", "DOTNET_gcServer=1"], "--runtime-env DOTNET_gcServer=1 and --gc workstation both set DOTNET_gcServer; give one of them." },
        { ["run", "delay", "--quick", "--cores", "2", "--runtime-env", "DOTNET_PROCESSOR_COUNT=8"], "--runtime-env DOTNET_PROCESSOR_COUNT=8 and --cores 2 both set DOTNET_PROCESSOR_COUNT; give one of them." },
        { ["compare", "a.json", "b.json", "--markdown", ""], "--markdown must not be empty." },
        { ["report", "a.json", "--out", ""], "--out must not be empty." },
    };

    [Theory]
    [MemberData(nameof(BadTargets))]
    public async Task ABadOutputTarget_OrAnEmptyList_IsRefusedBeforeAnythingRuns_AndLeavesNothing(string[] args, string expected)
    {
        var folder = Directory.CreateTempSubdirectory("conclab-targets-test-").FullName;
        var previous = Environment.CurrentDirectory;
        try
        {
            Environment.CurrentDirectory = folder;
            foreach (var name in new[] { "a.json", "b.json" })
            {
                Write(folder, name, Reporting.ExporterTests.SampleRun());
            }

            var started = System.Diagnostics.Stopwatch.StartNew();
            var (exitCode, error, output) = await InvokeAsync(args);

            Assert.Equal(2, exitCode);
            Assert.Equal($"conclab: {expected}", Assert.Single(error.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
            Assert.Equal(string.Empty, output);
            Assert.True(started.Elapsed < TimeSpan.FromSeconds(10), $"took {started.Elapsed}");
            Assert.Equal(["a.json", "b.json"], Directory.EnumerateFileSystemEntries(folder).Select(Path.GetFileName).Order(StringComparer.Ordinal));
            Assert.False(File.Exists("/.tmp") || File.Exists("/proc.tmp"), "a temporary file was left at the root");
        }
        finally
        {
            Environment.CurrentDirectory = previous;
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Run_IntoAFolderThatHoldsAnotherRunsResults_IsRefused_AndThoseResultsStay()
    {
        var folder = Directory.CreateTempSubdirectory("conclab-out-test-").FullName;
        try
        {
            // A run as this build writes it: its post's claims judged (report judges them again, the same way).
            var sample = Reporting.ExporterTests.SampleRun();
            var delay = ConcurrencyLab.Experiments.ScenarioCatalog.BuiltIn.Single(s => s.Name == sample.Scenarios[0].Name);
            sample = sample with { Scenarios = [.. sample.Scenarios.Select(s => s with { Claims = ConcurrencyLab.Reproduction.Claims.PostJudge.Judge(delay, s) })] };
            var results = Write(folder, "results.json", sample);
            var before = await File.ReadAllTextAsync(results);

            var (exitCode, error, _) = await InvokeAsync(["run", "delay", "--quick", "--variants", "whenall", "--out", folder]);

            Assert.Equal(2, exitCode);
            Assert.Contains("already holds a run's results (results.json), which are not written over", error, StringComparison.Ordinal);
            Assert.Equal(before, await File.ReadAllTextAsync(results));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [SkippableFact]
    public async Task Report_IntoALinkToTheResultsFilesOwnFolder_LeavesTheResultsFileAsItWas()
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "file identity is read with statx");
        var folder = Directory.CreateTempSubdirectory("conclab-report-link-test-").FullName;
        var link = folder + "-link";
        try
        {
            var results = Path.Combine(folder, "results.json");

            // A field this conclab does not know: rewriting the file would drop it.
            var written = await File.ReadAllTextAsync(Write(folder, "results.json", Reporting.ExporterTests.SampleRun()));
            await File.WriteAllTextAsync(results, "{\"fromTheFuture\": 1, " + written[(written.IndexOf('{', StringComparison.Ordinal) + 1)..]);
            var before = await File.ReadAllTextAsync(results);
            Directory.CreateSymbolicLink(link, folder);

            var (exitCode, error, _) = await InvokeAsync(["report", results, "--out", link]);

            Assert.True(exitCode == 0, error);
            Assert.Equal(before, await File.ReadAllTextAsync(results));
            Assert.True(File.Exists(Path.Combine(folder, "report.html")));
        }
        finally
        {
            Directory.Delete(link);
            Directory.Delete(folder, recursive: true);
        }
    }

    public static TheoryData<string> SpecialOutputs() => ["/dev/null", "link", "pipe"];

    [SkippableTheory]
    [MemberData(nameof(SpecialOutputs))]
    public async Task ASpecialFileAsOutput_IsWrittenThrough_NeverReplaced(string what)
    {
        Skip.IfNot(OperatingSystem.IsLinux(), "devices, links and FIFOs as Linux has them");
        var folder = Directory.CreateTempSubdirectory("conclab-special-test-").FullName;
        try
        {
            var input = Write(folder, "a.json", Reporting.ExporterTests.SampleRun());
            var target = what switch { "link" => Path.Combine(folder, "link.md"), "pipe" => Path.Combine(folder, "pipe"), _ => what };
            var linked = Path.Combine(folder, "linked.md");
            System.Diagnostics.Process? reader = null;
            if (what == "link")
            {
                File.CreateSymbolicLink(target, linked);
            }
            else if (what == "pipe")
            {
                using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", target))
                {
                    await mkfifo.WaitForExitAsync();
                }

                reader = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("cat", target) { RedirectStandardOutput = true });
            }

            var (exitCode, error, _) = await InvokeAsync(["compare", input, input, "--markdown", target]);

            Assert.True(exitCode == 0, error);
            switch (what)
            {
                case "/dev/null":
                    Assert.Equal("Device", ConcurrencyLab.FileSystem.FileFacts.Of("/dev/null").Kind.ToString());
                    break;
                case "link":
                    Assert.NotNull(new FileInfo(target).LinkTarget);
                    Assert.Contains("| delay | `whenall` |", await File.ReadAllTextAsync(linked), StringComparison.Ordinal);
                    break;
                default:
                    Assert.Contains("| delay | `whenall` |", await reader!.StandardOutput.ReadToEndAsync(), StringComparison.Ordinal);
                    Assert.Equal("Pipe", ConcurrencyLab.FileSystem.FileFacts.Of(target).Kind.ToString());
                    break;
            }

            reader?.Dispose();
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static string VersionOneFile(string scenario, [System.Runtime.CompilerServices.CallerFilePath] string source = "") =>
        Path.Combine(Path.GetDirectoryName(source)!, "..", "Results", "Files", $"v1-{scenario}.json");

    private static string Write(string folder, string name, ConcurrencyLab.Results.RunResult run)
    {
        var path = Path.Combine(folder, name);
        ConcurrencyLab.Reporting.Exporters.WriteFile(run, ConcurrencyLab.Reporting.JsonExporter.Default, path);
        return path;
    }

    private static Task<(int ExitCode, string Error, string Output)> InvokeAsync(string[] args) => Conclab.InvokeAsync(args);
}

/// <summary>A misspelt name is refused with the closest valid one offered, and nothing offered when none is near.</summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class MisspeltNameTests
{
    [Theory]
    [InlineData("rnu", "Did you mean 'run'?")]
    [InlineData("run delya --quick", "Did you mean 'delay'?")]
    [InlineData("run delay --quick --timr task-delay", "Did you mean '--timer'?")]
    [InlineData("run delay --quick --variants whenal", "(did you mean 'whenall'?)")]
    [InlineData("reproduce fanuot", "(did you mean 'fanout'?)")]
    [InlineData("compare a.json b.json --markdwon x", "Did you mean '--markdown'?")]
    public async Task AMisspeltName_IsRefusedInOneLine_OfferingTheClosest(string line, string offered)
    {
        var (exitCode, error, _) = await Conclab.InvokeAsync(line.Split(' '));

        Assert.Equal(2, exitCode);
        Assert.Contains(offered, Assert.Single(error.TrimEnd('\n').Split('\n')), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("run delay --quick --zzzzzz")]
    [InlineData("qqqqqq")]
    public async Task ANameFarFromEveryOne_IsRefusedWithoutAGuess(string line)
    {
        var (exitCode, error, _) = await Conclab.InvokeAsync(line.Split(' '));

        Assert.Equal(2, exitCode);
        Assert.DoesNotContain("did you mean", error, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData("delya", "delay", 1)]
    [InlineData("whenal", "whenall", 1)]
    [InlineData("run", "run", 0)]
    [InlineData("abc", "xyz", 3)]
    public void TheDistance_CountsASwapOfNeighboursAsOneEdit(string a, string b, int expected) =>
        Assert.Equal(expected, ConcurrencyLab.Scenarios.Closest.Distance(a, b));
}

/// <summary>What a run could not write is said on standard error, where a terminal shows it when standard output goes to a file.</summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class UnwrittenResultsTests
{
    [Fact]
    public void AReportThatCannotBeWritten_IsSaidOnStandardError_NotStandardOutput()
    {
        var blocker = Path.GetTempFileName();
        var output = new StringWriter();
        var error = new StringWriter();
        var previous = Console.Error;
        Console.SetError(error);
        try
        {
            // A folder under a regular file: nothing can be written there.
            var failures = ResultsOutput.Write(TestConsole.Create(output), Reporting.ExporterTests.SampleRun(), Path.Combine(blocker, "out"), null, [ConcurrencyLab.Reporting.ChartFormat.Svg]);

            Assert.NotEmpty(failures);
            Assert.Contains("conclab: could not write results.json", error.ToString(), StringComparison.Ordinal);
            Assert.DoesNotContain("could not write", output.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            Console.SetError(previous);
            File.Delete(blocker);
        }
    }
}

[CollectionDefinition(nameof(ConsoleErrorUsers), DisableParallelization = true)]
public sealed class ConsoleErrorUsers;
