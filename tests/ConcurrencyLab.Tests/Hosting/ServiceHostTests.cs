using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Running;
using ConcurrencyLab.Serialization;
using ConcurrencyLab.Tests.Cli;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Experiments.Hosting;

namespace ConcurrencyLab.Tests.Hosting;

/// <summary>Some tests swap Console.Error, so these run one at a time with the others that do.</summary>
[Collection(nameof(ConsoleErrorUsers))]
public sealed class ServiceHostTests
{
    [Fact]
    public async Task AServiceProcess_FindsItsServiceAmongTheScenariosOwn_AndRefusesOneNoScenarioHas()
    {
        var error = new StringWriter();
        var saved = Console.Error;
        Console.SetError(error);
        try
        {
            // The built-in scenarios own two services, both fanout's; the host itself names none.
            Assert.Equal(["external", "product"], ScenarioCatalog.BuiltIn.SelectMany(s => s.Services).Select(s => s.Name).Order(StringComparer.Ordinal));
            var exitCode = await ChildEntry.TryRunAsync([ServiceHost.ServiceArgument, "product", "{}"], [ScenarioCatalog.BuiltIn[0]]);

            Assert.Equal(ServiceHost.BadRequestExitCode, exitCode);
            Assert.Contains("unknown service 'product'", error.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            Console.SetError(saved);
        }
    }

    [Fact]
    public async Task ATrialGivenAMalformedRequest_SaysWhyInOneLine_AndWritesNoResult()
    {
        var error = new StringWriter();
        var saved = Console.Error;
        Console.SetError(error);
        var result = Path.Combine(Path.GetTempPath(), $"conclab-test-{Guid.NewGuid():N}.json");
        try
        {
            // A trial told of a trial before it, but not which process: no usable request.
            const string request = """{"scenario":"delay","variant":{"name":"whenall","family":"whenall","parameters":{},"description":""},"parameters":{},"seed":1,"sampleIntervalMs":10,"after":{"startTime":"1"}}""";
            var exitCode = await ChildEntry.TryRunAsync([TrialHost.RequestArgument, request, TrialHost.ResultArgument, result], ScenarioCatalog.BuiltIn);

            Assert.Equal(TrialHost.BadRequestExitCode, exitCode);
            Assert.Equal(["a trial request has no after.processId."], error.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => l.TrimEnd('\r')));
            Assert.False(File.Exists(result));
        }
        finally
        {
            Console.SetError(saved);
            File.Delete(result);
        }
    }

    [Fact]
    public async Task ChildEntry_LeavesAnOrdinaryCommandLineAlone()
    {
        Assert.Null(await ChildEntry.TryRunAsync(["run", "delay"], ScenarioCatalog.BuiltIn));
    }

    [Fact]
    public void Commands_MeasureTheRegionBetweenStartAndStop_AndAnswerEveryLine()
    {
        using var input = new StringReader("measure stop\nmeasure start\nmeasure stop\nsing\n");
        using var output = new StringWriter();

        ServiceHost.ServeCommands(input, output);

        var answers = output.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => l.TrimEnd('\r')).ToList();
        Assert.Equal(4, answers.Count);
        Assert.Equal("reply error no measurement was started", answers[0]);
        Assert.Equal("reply measuring", answers[1]);
        Assert.StartsWith("reply measured {", answers[2], StringComparison.Ordinal);
        var measured = JsonSerializer.Deserialize<Measurements>(answers[2]["reply measured ".Length..], LabJson.Options)!;
        Assert.True(measured.WallMs > 0);
        Assert.True(measured.ThreadsAtStart > 0 || !OperatingSystem.IsLinux());
        Assert.Equal("reply error unknown command 'sing'", answers[3]);
    }
}
