/**
 * A short, one-line rendering of any value for an error message: JSON-like, at most `max` characters,
 * built iteratively and stopping as soon as it is long enough — a 100,000-deep array, a cycle, a
 * BigInt, a 1 GB string or a getter that throws cannot make an error message throw, recurse or cost
 * more than a few hundred steps.
 */
export function preview(value: unknown, max = 80): string {
  let out = '';
  // Work items: a value to render, or literal text (closing brackets, separators).
  const work: Array<{ readonly value: unknown } | string> = [{ value }];
  const budget = max + 1;
  try {
    while (work.length > 0 && out.length < budget) {
      const item = work.pop() as { readonly value: unknown } | string;
      if (typeof item === 'string') {
        out += item;
        continue;
      }
      const v = item.value;
      switch (typeof v) {
        case 'string':
          out += JSON.stringify(v.length > budget ? v.slice(0, budget) : v);
          break;
        case 'number':
        case 'boolean':
          out += String(v);
          break;
        case 'bigint':
          out += `${v}n`;
          break;
        case 'undefined':
          out += 'undefined';
          break;
        case 'function':
          out += '[function]';
          break;
        case 'symbol':
          out += v.toString();
          break;
        case 'object': {
          if (v === null) {
            out += 'null';
            break;
          }
          if (Array.isArray(v)) {
            const items = v as readonly unknown[];
            out += '[';
            work.push(']');
            // Only as many elements as could still fit.
            const n = Math.min(items.length, budget);
            for (let i = n - 1; i >= 0; i--) {
              work.push({ value: items[i] });
              if (i > 0) work.push(',');
            }
          } else {
            const record = v as Readonly<Record<string, unknown>>;
            const keys = Object.keys(record).slice(0, budget);
            out += '{';
            work.push('}');
            for (let i = keys.length - 1; i >= 0; i--) {
              const k = keys[i] as string;
              work.push({ value: record[k] });
              work.push(`${JSON.stringify(k.length > budget ? k.slice(0, budget) : k)}:`);
              if (i > 0) work.push(',');
            }
          }
          break;
        }
        default:
          out += String(v);
      }
    }
  } catch {
    out += '…';
  }
  return out.length > max ? `${out.slice(0, max - 3)}...` : out;
}
