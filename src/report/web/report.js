/* report.js - the web view's only script: filters (report_html.c embeds
 * this file at build time: cmake/embed.cmake).  Every element of class f
 * is hidden unless its text holds the query, or it carries (data-k, a
 * port row's P_KeyTable) a partition whose name or number holds it.
 * "#q=TEXT" sets the query, "#cN"/"#p-XXXX" opens that class or
 * tenant. */
(function(){
var q=document.getElementById('q'),qc=document.getElementById('qcount');
var F=[].slice.call(document.querySelectorAll('.f,#ports-table tbody tr'));
var N={};[].forEach.call(document.querySelectorAll('details.tenant'),function(d){N[d.dataset.b]=d.querySelector('summary').textContent.toLowerCase();});
function keys(r){var s=r.dataset.k;if(s===undefined&&r.tagName==='TR'&&r.closest('#ports-table'))s=r.lastElementChild.textContent;return (s||'').match(/[0-9a-f]{4}\b/g)||[];}
function run(v){v=v.toLowerCase();if(!v.trim())v='';var B={},any=0;if(v)for(var b in N)if(N[b].indexOf(v)>=0){B[b]=1;any=1;}
 var shown=0;F.forEach(function(r){var ok=!v||r.textContent.toLowerCase().indexOf(v)>=0;
  if(!ok&&any)ok=keys(r).some(function(k){return B[parseInt(k,16)&0x7fff];});
  r.hidden=!ok;if(ok)shown++;});
 qc.textContent=v?shown+' of '+F.length+' rows and sections match':'';}
function hash(){var h=decodeURIComponent(location.hash.slice(1));if(h.slice(0,2)==='q='){q.value=h.slice(2);run(q.value);}else if(h){var e=document.getElementById(h);if(e&&e.tagName==='DETAILS')e.open=true;}}
q.addEventListener('input',function(){run(q.value);history.replaceState(null,'','#q='+encodeURIComponent(q.value));});
window.addEventListener('hashchange',hash);hash();
})();
