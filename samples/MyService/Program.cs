// A service with three endpoints that do the same work, a 20 ms call to a slower service, in three ways, so
// conclab load can show where each stops keeping up and why. The call is Task.Delay here; in yours it is a
// database or HTTP call.
var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
var app = builder.Build();

var downstream = TimeSpan.FromMilliseconds(20);
var gate = new Lock();

app.MapGet("/health", () => "ok");

// Done right: the thread goes back to the pool while the call is under way.
app.MapGet("/orders/async", async () =>
{
    await Task.Delay(downstream);
    return Results.Ok(new Order(1, "async"));
});

// Sync over async: a pool thread blocks for the whole call, so under load the pool runs out of threads and adds
// them slowly.
app.MapGet("/orders/sync", () =>
{
    Task.Delay(downstream).Wait();
    return Results.Ok(new Order(2, "sync"));
});

// A lock held across a short blocking step: every request queues behind the one inside, so at most 1 s / 2 ms
// = 500 requests a second get through, whatever the pool does.
app.MapGet("/orders/locked", () =>
{
    lock (gate)
    {
        Thread.Sleep(2);
    }

    return Results.Ok(new Order(3, "locked"));
});

app.Run();

internal sealed record Order(int Id, string Kind);
