using ConcurrencyLab.FileSystem;
using ConcurrencyLab.Reporting;
using ConcurrencyLab.Results;

namespace ConcurrencyLab.Tests.Reporting;

/// <summary>Names in a results file someone sent you never choose where the report's files go.</summary>
public sealed class HostileNamesTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("conclab-names-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    [Fact]
    public void AParameterKeyThatClimbsOut_GivesAChartInsideTheOutputFolder_AndNothingOutside()
    {
        var output = Directory.CreateDirectory(Path.Combine(_root, "a", "b", "out")).FullName;
        var sample = ExporterTests.SampleRun();
        VariantResult Point(string family, string key, int n, double ms) => new()
        {
            Name = $"{family}@{n}",
            Description = "d",
            Family = family,
            Parameters = new Dictionary<string, string> { [key] = n.ToString(System.Globalization.CultureInfo.InvariantCulture) },
            Status = TrialStatus.Ok,
            Trials = sample.Scenarios[0].Variants[1].Trials,
            Summary = new VariantSummary { Trials = 1, MedianWallMs = ms, MinWallMs = ms, MaxWallMs = ms, CiLowMs = ms, CiHighMs = ms },
        };
        var run = sample with
        {
            Scenarios =
            [
                sample.Scenarios[0] with
                {
                    Name = "../../\u001b]0;pwned\u0007",
                    Variants = [Point("x", "dop", 1, 10), Point("x", "dop", 2, 6), Point("y", "/../../../pwned", 1, 12), Point("y", "/../../../pwned", 2, 7)],
                },
            ],
        };

        var failures = Exporters.ExportAll(run, output, Exporters.Default, out var written);

        Assert.Empty(failures);
        Assert.Contains(written, p => Path.GetFileName(p).EndsWith("-sweep--..-..-..-pwned.svg", StringComparison.Ordinal));
        Assert.All(written, p => Assert.StartsWith(output + Path.DirectorySeparatorChar, Path.GetFullPath(p), StringComparison.Ordinal));
        Assert.All(written, p => Assert.DoesNotContain(Path.GetFileName(p), c => char.IsControl(c)));

        // Nothing beside or above the output folder.
        Assert.Equal(["out"], Directory.EnumerateFileSystemEntries(Path.Combine(_root, "a", "b")).Select(Path.GetFileName));
        Assert.Equal(["b"], Directory.EnumerateFileSystemEntries(Path.Combine(_root, "a")).Select(Path.GetFileName));
    }

    [SkippableFact]
    public void AChartsFolderThatIsALink_ToElsewhere_IsNotWrittenThrough()
    {
        Skip.If(OperatingSystem.IsWindows(), "links");
        var output = Directory.CreateDirectory(Path.Combine(_root, "out")).FullName;
        var elsewhere = Directory.CreateDirectory(Path.Combine(_root, "elsewhere")).FullName;
        Directory.CreateSymbolicLink(Path.Combine(output, Exporters.ChartsFolder), elsewhere);

        var failures = Exporters.ExportAll(ExporterTests.SampleRun(), output, Exporters.Default, out _);

        Assert.Empty(Directory.EnumerateFileSystemEntries(elsewhere));
        Assert.Contains(failures, f => f.Contains("would land outside", StringComparison.Ordinal));
        Assert.True(File.Exists(Path.Combine(output, "results.json")));
    }

    [Theory]
    [InlineData("../../etc/passwd")]
    [InlineData("..")]
    [InlineData("a/b\\c\u0000d\u001be")]
    [InlineData("")]
    [InlineData("--rf")]
    public void ASafeName_HasNoSeparator_NoLeadingDot_NoControlCharacter(string text)
    {
        var name = SafeName.Of(text);

        Assert.False(string.IsNullOrEmpty(name));
        Assert.DoesNotContain('/', name);
        Assert.DoesNotContain('\\', name);
        Assert.False(name.StartsWith('.'));
        Assert.False(name.StartsWith('-'));
        Assert.DoesNotContain(name, char.IsControl);
    }

    [Fact]
    public void ALongName_IsCut_AndTwoNamesAlikeStayApart()
    {
        var taken = new HashSet<string>();
        var a = SafeName.Unique(new string('a', 500) + "1", taken);
        var b = SafeName.Unique(new string('a', 500) + "2", taken);
        var c = SafeName.Unique("same", taken);
        var d = SafeName.Unique("same", taken);

        Assert.True(a.Length <= SafeName.MaxLength && b.Length <= SafeName.MaxLength);
        Assert.NotEqual(a, b);
        Assert.Equal(("same", "same-2"), (c, d));
    }
}
