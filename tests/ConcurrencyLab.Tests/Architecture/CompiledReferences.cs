using System.Reflection;
using System.Reflection.Emit;

namespace ConcurrencyLab.Tests.Architecture;

/// <summary>What compiled code names, read from its IL: what the architecture tests hold the code to.</summary>
internal static class CompiledReferences
{
    // Operand sizes of every IL op code, by its value, read from the runtime's own list.
    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    // The types a method's body names: every type a member it calls, makes, reads or casts to belongs to, and the
    // type arguments of a generic method it calls.
    public static IEnumerable<Type> BodyTypes(MethodBase method) => BodyMembers(method).SelectMany(member => member switch
    {
        Type type => [type],
        MethodInfo { IsGenericMethod: true } generic => [generic.DeclaringType!, .. generic.GetGenericArguments()],
        _ => member.DeclaringType is { } declaring ? new[] { declaring } : [],
    });

    // Every member a method's body names by token: a call, a new object, a field, a cast, a box, a ldtoken.
    public static IEnumerable<MemberInfo> BodyMembers(MethodBase method)
    {
        byte[]? il;
        try
        {
            il = method.GetMethodBody()?.GetILAsByteArray();
        }
        catch (Exception ex) when (ex is InvalidOperationException or BadImageFormatException)
        {
            yield break;
        }

        if (il is null)
        {
            yield break;
        }

        var module = method.Module;
        Type[]? typeArguments = method.DeclaringType is { IsGenericType: true } d ? d.GetGenericArguments() : null;
        Type[]? methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        var at = 0;
        while (at < il.Length)
        {
            OpCode code;
            if (il[at] == 0xFE && at + 1 < il.Length)
            {
                code = OpCodesByValue[unchecked((short)(0xFE00 | il[at + 1]))];
                at += 2;
            }
            else
            {
                code = OpCodesByValue[il[at]];
                at += 1;
            }

            var size = code.OperandType switch
            {
                OperandType.InlineNone => 0,
                OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
                OperandType.InlineVar => 2,
                OperandType.InlineI8 or OperandType.InlineR => 8,
                OperandType.InlineSwitch => 4 + (4 * BitConverter.ToInt32(il, at)),
                _ => 4,
            };
            if (code.OperandType is OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok)
            {
                MemberInfo? member = null;
                try
                {
                    member = module.ResolveMember(BitConverter.ToInt32(il, at), typeArguments, methodArguments);
                }
                catch (Exception ex) when (ex is ArgumentException or BadImageFormatException or TypeLoadException or MissingMemberException)
                {
                }

                if (member is not null)
                {
                    yield return member;
                }
            }

            at += size;
        }
    }

    /// <summary>Every type <paramref name="type"/> names in its signatures and its methods' bodies (generic arguments and element types unwrapped).</summary>
    public static IEnumerable<Type> Of(Type type)
    {
        ArgumentNullException.ThrowIfNull(type);
        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        IEnumerable<Type?> direct =
        [
            type.BaseType,
            .. type.GetInterfaces(),
            .. type.GetFields(all).Select(f => f.FieldType),
            .. type.GetProperties(all).Select(p => p.PropertyType),
            .. type.GetMethods(all).Select(m => m.ReturnType),
            .. type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)).SelectMany(m => m.GetParameters().Select(p => p.ParameterType).Concat(BodyTypes(m))),
        ];
        return direct.OfType<Type>().SelectMany(Unwrap);
    }

    /// <summary>The outermost type <paramref name="type"/> is nested in (itself when it is not nested).</summary>
    public static Type Outer(Type type)
    {
        while (type.IsNested)
        {
            type = type.DeclaringType!;
        }

        return type;
    }

    private static IEnumerable<Type> Unwrap(Type type)
    {
        if (type.HasElementType)
        {
            return Unwrap(type.GetElementType()!);
        }

        return type.IsGenericType && !type.IsGenericTypeDefinition
            ? [type.GetGenericTypeDefinition(), .. type.GetGenericArguments().SelectMany(Unwrap)]
            : [type];
    }
}
