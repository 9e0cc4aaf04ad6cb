import type { ReactNode } from 'react';
import type { ApiProblem } from '../api/errors';
import { SignedInLayout } from './SignedInLayout';

/**
 * A signed-in page of one item of a list (a dataset, a workflow, a skill): titled `<noun> <name>`
 * once loaded, with the way back to its list; its body is drawn only once the item is loaded.
 */
export function ItemPage<Item extends { name: string }>({
  noun,
  item,
  problem,
  back,
  children,
}: {
  noun: string;
  item: Item | undefined;
  problem?: ApiProblem;
  back: { href: string; label: string };
  children: (item: Item) => ReactNode;
}) {
  return (
    <SignedInLayout title={item ? `${noun} ${item.name}` : noun} problem={problem} back={back}>
      {item && children(item)}
    </SignedInLayout>
  );
}
