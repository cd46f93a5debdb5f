import React, { useState } from 'react';
export function View({ title, ...props }: { title: string; [k: string]: unknown }) {
  const [n, setN] = useState(0);
  return <div {...props} onClick={() => setN(n + 1)}><h1>{title}</h1>{n > 0 && <span>{n}</span>}</div>;
}
export const Frag = () => <><i /><b key="b" /></>;
