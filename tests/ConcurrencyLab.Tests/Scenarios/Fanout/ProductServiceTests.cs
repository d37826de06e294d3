using ConcurrencyLab.Experiments.Fanout;

namespace ConcurrencyLab.Tests.Scenarios.Fanout;

public sealed class ProductServiceTests
{
    private static TaskCanceledException TimedOut() => new("The request was canceled due to the configured HttpClient.Timeout", new TimeoutException());

    [Fact]
    public void AnExternalCallThatTimedOut_Is504_AlsoInsideABlockingJoin()
    {
        Assert.Equal(504, ProductService.Upstream(TimedOut()));
        Assert.Equal(504, ProductService.Upstream(new AggregateException(new HttpRequestException("refused"), TimedOut())));
        Assert.Equal(504, ProductService.Upstream(new AggregateException(new AggregateException(TimedOut()))));
    }

    [Fact]
    public void AnExternalCallThatFailedOtherwise_Is502_AndAnythingElseIsNotTheCallsFault()
    {
        Assert.Equal(502, ProductService.Upstream(new HttpRequestException("connection refused")));
        Assert.Equal(502, ProductService.Upstream(new AggregateException(new HttpRequestException("reset"))));
        Assert.Null(ProductService.Upstream(new InvalidOperationException("a bug of the service's own")));
        Assert.Null(ProductService.Upstream(new AggregateException(new FormatException())));
    }
}
