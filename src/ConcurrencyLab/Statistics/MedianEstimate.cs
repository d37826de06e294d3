using Perfolizer.Mathematics.Common;
using Perfolizer.Mathematics.QuantileEstimators;
using Pragmastat;

namespace ConcurrencyLab.Statistics;

/// <summary>A sample median with a 95% confidence interval.</summary>
/// <param name="Median">The middle value (mean of the two middle values for an even count).</param>
/// <param name="Low">Lower end of the 95% confidence interval.</param>
/// <param name="High">Upper end of the 95% confidence interval.</param>
public readonly record struct MedianEstimate(double Median, double Low, double High)
{
    /// <summary>
    /// Estimates the median of <paramref name="values"/> and its 95% interval. The interval is the
    /// Harrell-Davis median with the Maritz-Jarrett standard error and Student's t (Perfolizer); it suits
    /// the skewed, small samples timings give better than a mean-based interval. It is clamped to the
    /// sample's range, since wall times outside what was observed are not evidence; with one value it is
    /// that value.
    /// </summary>
    public static MedianEstimate Of(IReadOnlyCollection<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            throw new ArgumentException("No values.", nameof(values));
        }

        var sorted = values.Order().ToArray();
        var median = MedianOfSorted(sorted);
        if (sorted.Length == 1 || sorted[0] == sorted[^1])
        {
            return new MedianEstimate(median, median, median);
        }

        var interval = HarrellDavisQuantileEstimator.Instance
            .QuantileConfidenceIntervalEstimator(new Sample(sorted), Probability.Median)
            .ConfidenceInterval(ConfidenceLevel.L95);
        return new MedianEstimate(median, Math.Max(sorted[0], interval.Lower), Math.Min(sorted[^1], interval.Upper));
    }

    /// <summary>The median of already sorted values.</summary>
    internal static double MedianOfSorted(IReadOnlyList<double> sorted)
    {
        ArgumentNullException.ThrowIfNull(sorted);
        var middle = sorted.Count / 2;
        return sorted.Count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>The median of unsorted values, or 0 when there are none.</summary>
    public static double MedianOf(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length == 0 ? 0 : MedianOfSorted(sorted);
    }
}
