/** Stands in for a screen that a later issue builds. */
export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <section>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-gray-600">This screen is on its way.</p>
    </section>
  );
}
