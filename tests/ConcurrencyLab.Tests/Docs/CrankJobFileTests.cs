using System.Text.RegularExpressions;
using ConcurrencyLab.CommandLine.Commands;
using ConcurrencyLab.Experiments;
using ConcurrencyLab.Tests.Cli;
using YamlDotNet.RepresentationModel;

namespace ConcurrencyLab.Tests.Docs;

/// <summary>
/// crank/conclab.yml, read as crank reads it: every job's arguments, with the variables of every scenario and profile
/// that runs it put in, are a command line conclab takes, and every scenario runs jobs the file defines.
/// </summary>
public sealed partial class CrankJobFileTests
{
    private static readonly YamlMappingNode File_ = Load();

    [Fact]
    public void EveryJobsArguments_UnderEveryScenarioAndProfile_AreACommandLineTheLabTakes()
    {
        var jobs = Mapping(File_, "jobs");
        var scenarios = Mapping(File_, "scenarios");
        var profiles = Mapping(File_, "profiles");
        var root = CommandLineRoot.Build(TestConsole.Create(new StringWriter()), ScenarioCatalog.BuiltIn);
        var checkedLines = 0;
        foreach (var (scenarioName, scenario) in Children(scenarios))
        {
            foreach (var (service, use) in Children((YamlMappingNode)scenario))
            {
                var jobName = Text(use, "job");
                Assert.True(jobs.Children.ContainsKey(new YamlScalarNode(jobName)), $"scenario {scenarioName}'s {service} runs job '{jobName}', which the file does not define");
                var job = (YamlMappingNode)jobs[jobName];
                foreach (var (profileName, profile) in Children(profiles))
                {
                    // As crank layers them: the job's variables, the scenario's for that service, then the profile's.
                    var variables = new Dictionary<string, string>(StringComparer.Ordinal);
                    foreach (var layer in new[] { Optional(job, "variables"), Optional((YamlMappingNode)use, "variables"), Optional((YamlMappingNode)profile, "variables") })
                    {
                        foreach (var (name, value) in Children(layer))
                        {
                            variables[name] = ((YamlScalarNode)value).Value ?? string.Empty;
                        }
                    }

                    var line = Placeholder().Replace(Text(job, "arguments"), m => variables.TryGetValue(m.Groups[1].Value, out var value) ? value : m.Value);
                    Assert.DoesNotContain("{{", line, StringComparison.Ordinal);
                    var parse = root.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries));
                    Assert.True(parse.Errors.Count == 0, $"{scenarioName}/{service} under {profileName}: '{line}': {string.Join("; ", parse.Errors.Select(e => e.Message))}");

                    // The scenario a run job names is one the lab has.
                    if (line.StartsWith("run ", StringComparison.Ordinal))
                    {
                        Assert.Contains(ScenarioCatalog.BuiltIn, s => s.Name == line.Split(' ')[1]);
                    }

                    checkedLines++;
                }
            }
        }

        // Four posts on one job, fanout's three services under load and three for its burst: ten services, each
        // under both profiles.
        Assert.Equal(20, checkedLines);
    }

    [Fact]
    public void AHostOffLoopback_IsOnlyEverNamedWithAllowHost()
    {
        foreach (var (name, job) in Children(Mapping(File_, "jobs")))
        {
            var arguments = Text(job, "arguments");
            foreach (var host in new[] { "{{externalAddress}}", "{{productAddress}}" }.Where(h => arguments.Contains(h, StringComparison.Ordinal)))
            {
                Assert.Contains("--allow-host " + host, arguments, StringComparison.Ordinal);
            }

            Assert.False(HostPattern().IsMatch(arguments), $"job {name} names a host of its own instead of a variable: {arguments}");
        }
    }

    private static YamlMappingNode Load()
    {
        var stream = new YamlStream();
        using var reader = new StreamReader(Path.Combine(WorkloadsPageTests.Root(), "crank", "conclab.yml"));
        stream.Load(reader);
        return (YamlMappingNode)stream.Documents[0].RootNode;
    }

    private static YamlMappingNode Mapping(YamlMappingNode node, string key) => (YamlMappingNode)node[key];

    private static YamlMappingNode? Optional(YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var value) ? value as YamlMappingNode : null;

    private static string Text(YamlNode node, string key) => ((YamlScalarNode)((YamlMappingNode)node)[key]).Value ?? string.Empty;

    private static IEnumerable<(string Name, YamlNode Value)> Children(YamlMappingNode? node) =>
        node?.Children.Select(c => (((YamlScalarNode)c.Key).Value ?? string.Empty, c.Value)) ?? [];

    [GeneratedRegex(@"\{\{\s*([A-Za-z0-9_]+)\s*\}\}")]
    private static partial Regex Placeholder();

    // An address written into a job's arguments (127.0.0.1 or any other) rather than taken from a variable.
    [GeneratedRegex(@"\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b")]
    private static partial Regex HostPattern();
}
