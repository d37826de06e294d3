using System.CommandLine;
using ConcurrencyLab.Scenarios;

namespace ConcurrencyLab.CommandLine.Commands;

/// <summary>A list of <see cref="Parameter"/>s as a command's options, and the values given back as the text the parameters read.</summary>
internal static class ParameterOptions
{
    /// <summary>
    /// Adds an option per parameter to <paramref name="command"/>: a flag for a switch, a value otherwise, its default
    /// in its help, and its value at the quick scale too where the command has <c>--quick</c>.
    /// </summary>
    public static IReadOnlyList<(Parameter Descriptor, Option Option)> Add(Command command, IEnumerable<Parameter> parameters, bool hasQuick = true)
    {
        var added = new List<(Parameter Descriptor, Option Option)>();
        foreach (var parameter in parameters)
        {
            if (parameter.IsSwitch)
            {
                var flag = new Option<bool>("--" + parameter.Name) { Description = parameter.Description };
                command.Options.Add(flag);
                added.Add((parameter, flag));
                continue;
            }

            var quick = parameter.QuickValue is null || !hasQuick ? string.Empty : $"; {parameter.QuickValue} with --quick";
            var accepts = parameter.Accepts is { } range ? $"; {range}" : string.Empty;
            var defaults = parameter.DefaultValue.Length == 0 && quick.Length == 0 ? string.Empty
                : $" [default: {parameter.DefaultValue}{quick}{accepts}]";
            var option = new Option<string>("--" + parameter.Name) { Description = parameter.Description + defaults };

            // A word parameter completes to its words; any other to its default, so a shell shows what it takes.
            option.CompletionSources.Add(_ => parameter.Choices.Count > 0 ? parameter.Choices
                : parameter.DefaultValue.Length > 0 ? [parameter.DefaultValue] : []);
            command.Options.Add(option);
            added.Add((parameter, option));
        }

        return added;
    }

    /// <summary>The values given on the command line, by parameter name; those not given are left out.</summary>
    public static Dictionary<string, string> Read(ParseResult parse, IEnumerable<(Parameter Descriptor, Option Option)> options)
    {
        var values = new Dictionary<string, string>();
        foreach (var (descriptor, option) in options)
        {
            switch (option)
            {
                case Option<bool> flag when parse.GetValue(flag):
                    values[descriptor.Name] = Parameter.SwitchOn;
                    break;
                case Option<string> text when parse.GetValue(text) is { } value:
                    values[descriptor.Name] = value;
                    break;
            }
        }

        return values;
    }
}
