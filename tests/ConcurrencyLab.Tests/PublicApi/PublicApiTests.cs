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

    private static string Folder([System.Runtime.CompilerServices.CallerFilePath] string path = "") => Path.GetDirectoryName(path)!;
}
