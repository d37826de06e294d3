using ConcurrencyLab.Load;

namespace ConcurrencyLab.Tests.Load;

/// <summary>What conclab load refuses before anything starts, and what it allows.</summary>
public sealed class LoadOptionsTests
{
    private static readonly LoadOptions Good = new() { Url = "http://127.0.0.1:5000/", Endpoints = [new Endpoint("a", "/a")], Rates = [10, 20] };

    [Fact]
    public void GoodOptions_HaveNoProblem()
    {
        Assert.Empty(Good.Problems());
        Assert.Empty((Good with { Url = null, Command = "dotnet x.dll --urls http://127.0.0.1:{port}", Ready = "http://localhost:{port}/health", Rates = [] }).Problems());
    }

    [Theory]
    [InlineData("http://10.1.2.3:80/", "--url http://10.1.2.3:80/ is not on loopback")]
    [InlineData("http://example.com/", "--allow-host example.com")]
    [InlineData("http://127.0.0.1.example.com/", "is not on loopback")]
    [InlineData("ftp://127.0.0.1/", "must be an http:// or https:// URL")]
    [InlineData("http://user:pw@127.0.0.1/", "without credentials")]
    [InlineData("127.0.0.1:5000", "must be an http:// or https:// URL")]
    [InlineData("http://127.0.0.1:{port}/", "--url may hold {port} only with --start")]
    public void AUrlOffLoopbackOrNotHttp_IsRefused(string url, string expected)
    {
        var problems = (Good with { Url = url }).Problems();

        Assert.Contains(problems, p => p.Contains(expected, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("http://127.9.8.7:5000/")]
    [InlineData("http://[::1]:5000/")]
    [InlineData("http://localhost:5000/")]
    public void LoopbackUrls_AreAllowed(string url) => Assert.Empty((Good with { Url = url }).Problems());

    [Fact]
    public void AHostOfYourOwn_IsAllowedOnlyByName()
    {
        Assert.Empty((Good with { Url = "http://10.1.2.3/", AllowHost = "10.1.2.3" }).Problems());
        Assert.NotEmpty((Good with { Url = "http://10.1.2.4/", AllowHost = "10.1.2.3" }).Problems());
    }

    [Theory]
    [InlineData("a", "//evil.example/x", "must start with a single '/'")]
    [InlineData("a", "http://10.0.0.1/x", "must start with a single '/'")]
    [InlineData("a", "/has space", "must start with a single '/'")]
    [InlineData("no/slash", "/x", "a name is 1 to 40 letters")]
    [InlineData("", "/x", "a name is 1 to 40 letters")]
    public void ABadEndpoint_IsRefused(string name, string path, string expected)
    {
        var problems = (Good with { Endpoints = [new Endpoint(name, path)] }).Problems();

        Assert.Contains(problems, p => p.Contains(expected, StringComparison.Ordinal));
    }

    [Fact]
    public void NamedStarts_AreVariants_EachWithEveryEndpoint()
    {
        var one = Good with { Url = null, Ready = "http://127.0.0.1:{port}/health", Endpoints = [new Endpoint("sync", "/s")], Starts = [new Start("v1", "dotnet v1.dll"), new Start("v2", "dotnet v2.dll")] };
        var two = one with { Endpoints = [new Endpoint("sync", "/s"), new Endpoint("async", "/a")] };

        Assert.Empty(one.Problems());
        Assert.Equal([new Endpoint("v1", "/s", "dotnet v1.dll"), new Endpoint("v2", "/s", "dotnet v2.dll")], one.Variants);
        Assert.Equal(["v1-sync", "v1-async", "v2-sync", "v2-async"], two.Variants.Select(v => v.Name));
        Assert.Equal(["dotnet v1.dll", "dotnet v1.dll", "dotnet v2.dll", "dotnet v2.dll"], two.Variants.Select(v => v.Command));

        // One command for all and named ones are two ways to say it, not one; names are names, once each.
        Assert.Contains((one with { Command = "dotnet x.dll" }).Problems(), p => p.StartsWith("--start is either one command", StringComparison.Ordinal));
        Assert.Contains((one with { Starts = [new Start("v1", "a"), new Start("V1", "b")] }).Problems(), p => p.Contains("names 'v1' twice", StringComparison.Ordinal));
        Assert.Contains((one with { Starts = [new Start("v1", " ")] }).Problems(), p => p.Contains("NAME=COMMAND", StringComparison.Ordinal));
        Assert.Contains((one with { Ready = null }).Problems(), p => p.StartsWith("--start needs --ready", StringComparison.Ordinal));
    }

    [Fact]
    public void APid_GoesWithAUrl_NotWithAServiceTheLabStarts()
    {
        Assert.Empty((Good with { Pid = 1234 }).Problems());
        Assert.Contains((Good with { Url = null, Command = "x", Ready = "http://127.0.0.1:1/", Pid = 1234 }).Problems(), p => p.StartsWith("--pid goes with --url", StringComparison.Ordinal));
        Assert.Contains((Good with { Pid = 0 }).Problems(), p => p.StartsWith("--pid must be a process id", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("/\\/192.0.2.1/x")]
    [InlineData("/\\\\192.0.2.1/x")]
    [InlineData("//192.0.2.1/x")]
    [InlineData("/x\\y")]
    [InlineData("/ x")]
    [InlineData("x")]
    public void AnEndpointThatIsNoPathOnTheService_IsRefused_BeforeAnythingIsSent(string path)
    {
        // The URI parser reads '\' as '/': '/\/192.0.2.1/x' joined to the service's URL is a network path to another host.
        var problems = (Good with { Endpoints = [new Endpoint("a", path)] }).Problems();
        Assert.Contains(problems, p => p.Contains("it is requested from the service's URL, never elsewhere", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("/a/b?c=1&d=%2F%2Fhost")]
    [InlineData("/product/whenall-async/1")]
    [InlineData("/a@b/c")]
    public void AnEndpointThatIsAPathOnTheService_IsAllowed(string path) => Assert.Empty((Good with { Endpoints = [new Endpoint("a", path)] }).Problems());

    [Fact]
    public void OtherMistakes_AreEachSaid()
    {
        Assert.Contains((Good with { Endpoints = [] }).Problems(), p => p.Contains("at least one --endpoint", StringComparison.Ordinal));
        Assert.Contains((Good with { Endpoints = [new Endpoint("a", "/a"), new Endpoint("A", "/b")] }).Problems(), p => p.Contains("twice", StringComparison.Ordinal));
        Assert.Contains((Good with { Rates = [20, 10] }).Problems(), p => p.Contains("must increase", StringComparison.Ordinal));
        Assert.Contains((Good with { Rates = [0] }).Problems(), p => p.Contains("above 0", StringComparison.Ordinal));
        Assert.Contains((Good with { Rates = [100_000] }).Problems(), p => p.Contains("at most 50000", StringComparison.Ordinal));
        Assert.Contains((Good with { Step = TimeSpan.FromSeconds(0.1) }).Problems(), p => p.StartsWith("--step", StringComparison.Ordinal));
        Assert.Contains((Good with { Timeout = TimeSpan.Zero }).Problems(), p => p.StartsWith("--timeout", StringComparison.Ordinal));
        Assert.Contains((Good with { SloMs = -1 }).Problems(), p => p.StartsWith("--slo", StringComparison.Ordinal));
        Assert.Contains((Good with { SloMs = double.NaN }).Problems(), p => p.StartsWith("--slo", StringComparison.Ordinal));
        Assert.Contains((Good with { Repeat = 0 }).Problems(), p => p.StartsWith("--repeat", StringComparison.Ordinal));
        Assert.Contains((Good with { Connections = 8 }).Problems(), p => p.Contains("--connections runs a closed loop", StringComparison.Ordinal));
        Assert.Contains((Good with { Connections = 0, Rates = [] }).Problems(), p => p.StartsWith("--connections", StringComparison.Ordinal));
        Assert.Empty((Good with { Connections = 8, Rates = [] }).Problems());
        Assert.False((Good with { Connections = 8, Rates = [] }).Auto);
        Assert.Contains((Good with { Url = null }).Problems(), p => p.Contains("load needs a service", StringComparison.Ordinal));
        Assert.Contains((Good with { Command = "x" }).Problems(), p => p.Contains("--start needs --ready", StringComparison.Ordinal));
        Assert.Contains((Good with { Ready = "http://127.0.0.1/health" }).Problems(), p => p.Contains("--ready goes with --start", StringComparison.Ordinal));
        Assert.Contains((Good with { Url = null, Command = "x", Ready = "http://192.168.0.1/health" }).Problems(), p => p.Contains("--ready", StringComparison.Ordinal) && p.Contains("not on loopback", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("http://127.0.0.1:{port}/health", "http://127.0.0.1:{port}/")]
    [InlineData("http://localhost:5000", "http://localhost:5000/")]
    [InlineData("https://[::1]:8443/a/b?c", "https://[::1]:8443/")]
    public void TheBaseOfAReadyUrl_KeepsSchemeHostAndPort(string ready, string expected) => Assert.Equal(expected, LoadOptions.BaseOf(ready));

    [Theory]
    [InlineData("dotnet \"x.dll", "--start has an unclosed \" quote: dotnet \"x.dll")]
    [InlineData("sh -c 'serve", "--start has an unclosed ' quote: sh -c 'serve")]
    public void AStartCommandWithAQuoteLeftOpen_IsRefusedBeforeAnythingStarts(string command, string problem)
    {
        var single = Good with { Url = null, Command = command, Ready = "http://127.0.0.1:{port}/health" };
        Assert.Equal(problem, Assert.Single(single.Problems()));
        var named = Good with { Url = null, Starts = [new Start("v1", "dotnet v1.dll"), new Start("v2", command)], Ready = "http://127.0.0.1:{port}/health" };
        Assert.Equal(problem, Assert.Single(named.Problems()));
    }
}
