namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// Bad command lines given to the real program, as a shell passes them: what the in-process fuzz test cannot
/// see (the process's exit code, the runtime's own handler for an exception nobody caught) is checked here.
/// </summary>
public sealed class BadInputProcessTests
{
    public static TheoryData<string[]> Lines { get; } = new()
    {
        new[] { "run", "delay", "--json", "" },
        new[] { "run", "delay", "--quick", "--json", "/proc" },
        new[] { "run", "delay", "--quick", "--json", "." },
        new[] { "run", "delay", "--quick", "--json", new string('j', 300) },
        new[] { "run", "delay", "--quick", "--out", "" },
        new[] { "run", "delay", "--quick", "--variants", "" },
        new[] { "run", "fanout", "--quick", "--variants", ",,," },
        new[] { "run", "delay", "--quick", "--repeat", "1\n2" },
        new[] { "run", "delay", "--quick", "--items", new string('9', 10_000) },
        new[] { "run", "delay", "--quick", "--seed", "1;rm -rf /" },
        new[] { "run", "scan", "--quick", "--port", "70000" },
        new[] { "run", "scan", "--quick", "--targets", "10.0.0.0/8", "--port", "80" },
        new[] { "run", "hash", "--quick", "--file-size", "1ZiB" },
        new[] { "run", "hash", "--quick", "--dir", "" },
        new[] { "run", "poll", "--quick", "--hit-rate", "NaN" },
        new[] { "run", "fanout", "--quick", "--delays", "1..2" },
        new[] { "run", "delay", "--quick", "--trial-timeout", "1e999" },
        new[] { "run", "delay", "--quick", "--sample-interval", "-1" },
        new[] { "run", "nosuch" },
        new[] { "rnu" },
        new[] { "list", "extra" },
        new[] { "report" },
        new[] { "report", "/dev/zero" },
        new[] { "report", "/dev/null" },
        new[] { "report", "/proc" },
        new[] { "report", "" },
        new[] { "report", "/nonexistent/results.json" },
        new[] { "compare", "/dev/zero" },
        new[] { "compare", "/dev/zero", "/dev/zero", "--markdown", "/" },
        new[] { "compare", "a.json", "b.json", "--alpha", "0.9" },
        new[] { "run", "delay", "--quick", "--🙂", "1" },
        new[] { "run", "delay", "--quick", "--variants", new string('w', 10_000) },
    };

    [SkippableTheory]
    [MemberData(nameof(Lines))]
    public async Task ABadCommandLine_EndsTheProcessWithExitCode2_AndOneLine_NoCrash(string[] args)
    {
        Skip.If(OperatingSystem.IsWindows() && args.Any(a => a.StartsWith("/dev", StringComparison.Ordinal) || a.StartsWith("/proc", StringComparison.Ordinal)), "Linux paths");
        using var folder = new TempFolder();

        var result = await ProgramRunner.ConclabAsync(folder.Path, args);

        Assert.True(result.ExitCode == 2, result.ToString());
        var line = Assert.Single(result.Error.TrimEnd('\n').Split('\n'));
        Assert.StartsWith("conclab: ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("Unhandled exception", result.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", result.Error + result.Output, StringComparison.Ordinal);
        Assert.Empty(Directory.EnumerateFileSystemEntries(folder.Path));
    }
}
