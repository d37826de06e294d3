namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// Tests that open sockets in the test process run one at a time and alone. Scan fleets use the same
/// addresses (127.0.1.x), so two at once could pick the same port and one fleet's listener would answer for
/// another's closed host; the poll tests count the process's open sockets before and after a trial; and the
/// fanout test asserts that no conclab service process is left, which a service test running beside it has.
/// </summary>
[CollectionDefinition(nameof(SocketUsers), DisableParallelization = true)]
public sealed class SocketUsers;
