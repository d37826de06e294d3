using System.Text.Json;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Running;
using ConcurrencyLab.Serialization;

namespace ConcurrencyLab.Tests.Running;

public sealed class ServiceHostTests
{
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
