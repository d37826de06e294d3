namespace ConcurrencyLab.IntegrationTests;

/// <summary>
/// Tests that must run alone: the poll tests count the test process's open sockets before and after a trial, which a
/// socket opened beside them by any test would change, and the fanout test times a blocked pool against a cured one
/// and asserts that no conclab service process is left. Tests that open sockets in the test process run before them,
/// in the parallel phase, and never beside them.
/// </summary>
[CollectionDefinition(nameof(SocketUsers), DisableParallelization = true)]
public sealed class SocketUsers;

/// <summary>
/// Tests that stand up scan fleets on the same addresses (127.0.1.x): one at a time, so two fleets never pick the same
/// port and one fleet's listener never answers for another's closed host; beside the other classes all the same.
/// </summary>
[CollectionDefinition(nameof(ScanFleets))]
public sealed class ScanFleets;
