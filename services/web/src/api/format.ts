/** How the pages write amounts and times. */
export const credits = (amount: number) => `${amount.toLocaleString('en')} credits`;

export const usd = (amount: number) => `$${amount.toLocaleString('en', { minimumFractionDigits: 2 })}`;

export const when = (iso: string) => new Date(iso).toLocaleString('en');
