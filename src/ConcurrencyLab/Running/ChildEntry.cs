using ConcurrencyLab.Hosting;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.Running;

/// <summary>
/// Where a child process of the lab begins: one trial (see <see cref="TrialHost"/>) or one of a scenario's
/// services (see <see cref="ServiceDefinition"/>). A program that runs scenarios calls it first in <c>Main</c>, before
/// any command-line parsing or console set-up, since the lab starts that same program for its children.
/// </summary>
public static class ChildEntry
{
    /// <summary>
    /// Runs the trial or service that <paramref name="args"/> ask for, among <paramref name="scenarios"/> and
    /// their services, and returns its exit code; null when <paramref name="args"/> are not a child's.
    /// </summary>
    public static async Task<int?> TryRunAsync(IReadOnlyList<string> args, IReadOnlyList<Scenario> scenarios)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(scenarios);
        var trial = TrialHost.IsChildInvocation(args);
        var service = !trial && ServiceDefinition.IsInvocation(args);
        if (trial || service)
        {
            // Written down, so that a next run removes what this process leaves if it is killed outright.
            RunJournal.Join();

            // The runner's diagnostic port is for this process's runtime alone, read as it started: a .NET
            // process started from here (a service) must not connect to it too and wait there for ever.
            Environment.SetEnvironmentVariable(Diagnostics.RuntimeEventSession.PortVariable, null);
        }

        if (trial)
        {
            return await TrialHost.RunChildAsync(args, scenarios).ConfigureAwait(false);
        }

        if (service)
        {
            return await ServeAsync(args, scenarios.SelectMany(s => s.Services)).ConfigureAwait(false);
        }

        return null;
    }

    private static async Task<int> ServeAsync(IReadOnlyList<string> args, IEnumerable<ServiceDefinition> services)
    {
        if (args.Count != 3)
        {
            await Console.Error.WriteLineAsync($"usage: {ServiceDefinition.Argument} <name> <settings-json, or - for its first line of " +
                $"standard input>").ConfigureAwait(false);
            return ServiceDefinition.BadRequestExitCode;
        }

        var service = services.FirstOrDefault(s => s.Name == args[1]);
        if (service is null)
        {
            await Console.Error.WriteLineAsync($"unknown service '{args[1]}'").ConfigureAwait(false);
            return ServiceDefinition.BadRequestExitCode;
        }

        return await service.ServeAsync(args[2]).ConfigureAwait(false);
    }
}
