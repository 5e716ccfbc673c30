/** The shop's root layout: a server component, as App Router layouts are by default. */
import type { ReactNode } from 'react';

export const metadata = { title: 'The shop' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
