using ConcurrencyLab.Results;
using ConcurrencyLab.Strategies;
using ConcurrencyLab.Workloads;

namespace ConcurrencyLab.Scenarios;

/// <summary>
/// A scenario whose variants are strategies crossed with the forms of one workload: N independent items,
/// each run once. Subclasses build the workload from the parameters and seed; this class turns every
/// strategy into variants, validates pairings before a run, and runs and checks a trial.
/// </summary>
public abstract class BatchScenario : Scenario
{
    /// <summary>The name of the parameter listing degrees of parallelism, such as <c>--dop 4,40</c>.</summary>
    public const string DegreesParameter = "dop";

    private const int PrimeItems = 4;

    /// <summary>Builds the workload; the same parameters and seed must give the same items.</summary>
    public abstract Workload CreateWorkload(ParameterValues parameters, int seed);

    /// <summary>Strategies that get an <c>@default</c> variant besides the listed degrees.</summary>
    protected virtual IReadOnlyCollection<string> StrategiesWithDefaultDegree => ["parallel-for", "foreach-async"];

    /// <summary>
    /// Describes the forms the workload offers without building it (building may be costly, or need a fixture).
    /// </summary>
    protected abstract IReadOnlyList<WorkForm> WorkloadForms(ParameterValues parameters);

    /// <summary>The degrees from <c>--dop</c>.</summary>
    protected static IReadOnlyList<int> Degrees(ParameterValues parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        return parameters.Values.ContainsKey(DegreesParameter) ? parameters.GetInt32List(DegreesParameter) : [Environment.ProcessorCount];
    }

    /// <inheritdoc/>
    public override IReadOnlyList<VariantInfo> DefaultVariants(ParameterValues parameters)
    {
        var forms = WorkloadForms(parameters);
        var variants = new List<VariantInfo>();
        foreach (var strategy in StrategyCatalog.All)
        {
            // Parallel.ForEach is Parallel.For over an enumerable: listed, but run only when named.
            if (strategy.Id == "parallel-foreach")
            {
                continue;
            }

            var form = strategy.Forms.Where(forms.Contains).Cast<WorkForm?>().FirstOrDefault();
            if (form is null)
            {
                continue;
            }

            if (!strategy.HasDegree)
            {
                Add(new BatchVariant(strategy, form.Value, Degree.Default));
                continue;
            }

            // A degree the API refuses (PLINQ above 512) is left out rather than run and failed.
            foreach (var degree in Degrees(parameters).Where(d => d <= strategy.MaxDegree))
            {
                Add(new BatchVariant(strategy, form.Value, Degree.Of(degree)));
            }

            if (StrategiesWithDefaultDegree.Contains(strategy.Id))
            {
                Add(new BatchVariant(strategy, form.Value, Degree.Default));
            }
        }

        return variants;

        void Add(BatchVariant variant) => variants.Add(new VariantInfo(variant.Name, variant.Description));
    }

    /// <inheritdoc/>
    public override bool TryResolveVariant(string name, ParameterValues parameters, out VariantInfo variant, out string problem)
    {
        variant = null!;
        if (!BatchVariant.TryParse(name, out var parsed, out problem))
        {
            return false;
        }

        if (!WorkloadForms(parameters).Contains(parsed.Form))
        {
            problem = $"variant '{name}': the {Name} workload has no {parsed.Form.ToSuffix()} form; it offers {string.Join(", ", WorkloadForms(parameters).Select(f => f.ToSuffix()))}.";
            return false;
        }

        variant = new VariantInfo(parsed.Name, parsed.Description);
        problem = string.Empty;
        return true;
    }

    /// <inheritdoc/>
    public override async Task<TrialOutcome> RunTrialAsync(TrialContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (!BatchVariant.TryParse(context.Variant, out var variant, out var error))
        {
            throw new ArgumentException(error, nameof(context));
        }

        var workload = CreateWorkload(context.Parameters, context.Seed);
        if (context.Prime)
        {
            // A few items are enough to compile every path; too few to make the pool inject threads.
            var dry = new WorkBatch(workload.CreatePrimer(Math.Min(PrimeItems, workload.Count)), variant.Form);
            await variant.Strategy.ExecuteAsync(dry, variant.Degree, cancellationToken).ConfigureAwait(false);
        }

        var batch = new WorkBatch(workload, variant.Form);
        string? failure = null;

        context.Meter.Start();
        batch.MarkStart();
        try
        {
            await variant.Strategy.ExecuteAsync(batch, variant.Degree, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            failure = $"{ex.GetType().Name}: {FirstLine(ex.GetBaseException().Message)}";
        }
        finally
        {
            context.Meter.Stop();
        }

        return new TrialOutcome
        {
            ItemsPlanned = workload.Count,
            ItemsCompleted = batch.Completed,
            ItemsDuplicated = batch.Duplicated,
            LatenciesMs = batch.CompletionLatenciesMs(),
            WorkloadDigest = workload.Digest,
            Error = failure,
        };
    }

    private static string FirstLine(string text)
    {
        var end = text.IndexOfAny(['\r', '\n']);
        return end < 0 ? text : text[..end];
    }
}
