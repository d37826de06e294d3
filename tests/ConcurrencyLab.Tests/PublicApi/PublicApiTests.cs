using System.Reflection;
using PublicApiGenerator;

namespace ConcurrencyLab.Tests.PublicApi;

/// <summary>
/// Each package's public API against the listing checked in beside this file: a member made public, changed or
/// removed fails here until the listing is updated with it, so every change to what users see is reviewed.
/// </summary>
public sealed class PublicApiTests
{
    public static TheoryData<string> Assemblies { get; } = new()
    {
        "ConcurrencyLab",
        "ConcurrencyLab.Load",
        "ConcurrencyLab.Reproduction",
        "ConcurrencyLab.Experiments",
        "ConcurrencyLab.Charts",
        "ConcurrencyLab.CommandLine",
    };

    [Theory]
    [MemberData(nameof(Assemblies))]
    public void ThePublicApi_IsTheOneListed(string name)
    {
        var assembly = Assembly.Load(name);
        var api = assembly.GeneratePublicApi(new ApiGeneratorOptions { IncludeAssemblyAttributes = false }).ReplaceLineEndings("\n");
        var listing = Path.Combine(Folder(), $"{name}.txt");
        var received = Path.ChangeExtension(listing, ".received.txt");
        if (File.Exists(listing) && File.ReadAllText(listing).ReplaceLineEndings("\n") == api)
        {
            File.Delete(received);
            return;
        }

        File.WriteAllText(received, api);
        Assert.Fail($"The public API of {name} differs from {listing}. If the change is meant, replace the listing with {received} and commit it.");
    }

    // What a workload author reads in the package they reference stays a short read: the results contract behind
    // LabResult is internal, and results.json is its public form.
    [Fact]
    public void TheCorePackagesPublicApi_StaysUnderFiveHundredLines()
    {
        var api = Assembly.Load("ConcurrencyLab").GeneratePublicApi(new ApiGeneratorOptions { IncludeAssemblyAttributes = false });
        var lines = api.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n').Length;
        Assert.True(lines < 500, $"the ConcurrencyLab package's public API is {lines} lines: a type made public belongs behind LabResult or in another package");
    }

    private static string Folder([System.Runtime.CompilerServices.CallerFilePath] string path = "") => Path.GetDirectoryName(path)!;
}
