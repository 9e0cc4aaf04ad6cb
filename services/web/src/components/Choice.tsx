/** A labelled select (the label is its accessible name) of values, each with what it shows. */
export function Choice({
  label,
  value,
  options,
  onValue,
}: {
  label: string;
  value: string;
  options: { value: string; text: string }[];
  onValue: (value: string) => void;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(event) => onValue(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </label>
  );
}
