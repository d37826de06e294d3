using System.Net;
using ConcurrencyLab.Hosting;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// One of a scenario's services as a user starts it by itself, <c>conclab serve NAME</c>: on a host of its own,
/// under a load generator (<c>conclab load --start</c>), or as a crank job. It listens where it is told, says so
/// in one line of output (<see cref="ReadyLine"/>), and serves until the command is cancelled (Ctrl+C, SIGTERM).
/// </summary>
/// <param name="Name">The name after <c>conclab serve</c>: <c>fanout-product</c>.</param>
/// <param name="Summary">What it serves, for the command's help.</param>
/// <param name="Parameters">Its settings, each an option of the command, read as a scenario's parameters are.</param>
/// <param name="ServeAsync">
/// Serves until the token is cancelled. Throws <see cref="ArgumentException"/> for settings it cannot serve with
/// and <see cref="IOException"/> when it cannot listen, each with a message that is one line for the user.
/// </param>
internal sealed record StandaloneService(
    string Name,
    string Summary,
    IReadOnlyList<Parameter> Parameters,
    Func<StandaloneRequest, CancellationToken, Task> ServeAsync)
{
    /// <summary>Begins the line a service writes once it listens, followed by its HTTP/1.1 address and then
    /// <c>http2=</c> and its HTTP/2 one.</summary>
    public const string ReadyLine = "listening ";
}

/// <summary>Where a <see cref="StandaloneService"/> listens and what it serves with, already checked.</summary>
/// <param name="Values">Its parameters, defaults filled in.</param>
/// <param name="Http1">Where it answers HTTP/1.1; port 0 takes a free one.</param>
/// <param name="Http2">Where it answers HTTP/2 without TLS (prior knowledge); port 0 takes a free one.</param>
/// <param name="AllowedHosts">Hosts other than loopback the user named with <c>--allow-host</c>: the only ones it may call.</param>
/// <param name="Output">Where the ready line goes (standard output).</param>
/// <param name="Errors">Where the ids of child processes go, as crank reads them (standard error).</param>
internal sealed record StandaloneRequest(
    ParameterValues Values,
    IPEndPoint Http1,
    IPEndPoint Http2,
    IReadOnlySet<string> AllowedHosts,
    TextWriter Output,
    TextWriter Errors)
{
    /// <summary>Whether the service may call or serve <paramref name="host"/>: loopback always, another host only when named.</summary>
    public bool Allows(string host) =>
        Loopback.IsHost(host) || AllowedHosts.Contains(host.Trim('[', ']'));

    /// <summary>Tells a job runner (crank's agent) of a process the service starts, whose CPU and memory are the job's;
    /// nothing when none listens.</summary>
    public Action<int> AnnounceChild { get; init; } = _ => { };
}
